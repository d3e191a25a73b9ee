package io.overseer.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * --jfr: a JFR recording of the running application server (jcmd JFR.start / JFR.stop, no restart), and its
 * hottest methods: the top frame of every jdk.ExecutionSample, counted.
 */
final class JfrProfile {

    record Hot(String method, long samples, double percent) {
    }

    private final long pid;
    private final Path file;

    JfrProfile(long pid, Path file) {
        this.pid = pid;
        this.file = file;
    }

    void start() throws Exception {
        jcmd("JFR.start", "name=bench", "settings=profile", "filename=" + file);
    }

    void stop() throws Exception {
        jcmd("JFR.stop", "name=bench");
    }

    List<Hot> top(int n) throws Exception {
        Map<String, Long> counts = new HashMap<>();
        long total = 0;
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent e = recording.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null
                        || e.getStackTrace().getFrames().isEmpty()) {
                    continue;
                }
                RecordedFrame top = e.getStackTrace().getFrames().get(0);
                counts.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1L, Long::sum);
                total++;
            }
        }
        long all = total;
        List<Hot> out = new ArrayList<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n)
                .forEach(en -> out.add(new Hot(en.getKey(), en.getValue(), 100.0 * en.getValue() / all)));
        return out;
    }

    private void jcmd(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0 || out.contains("Could not") || out.contains("Exception")) {
            throw new IllegalStateException("jcmd " + String.join(" ", args) + " failed: " + out.trim());
        }
    }
}
