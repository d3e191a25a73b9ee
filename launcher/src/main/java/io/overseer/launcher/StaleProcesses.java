package io.overseer.launcher;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds processes a previous launcher left behind (it was kill -9'd, or the machine's session died) by a
 * directory that only our children name on their command line, and stops them: otherwise the next start
 * fails on a busy port or a locked data directory.
 */
public final class StaleProcesses {

    private static final Logger LOG = LoggerFactory.getLogger(StaleProcesses.class);

    private StaleProcesses() {
    }

    /**
     * Stops every process (other than this JVM) whose command line names {@code dir} as a whole path,
     * sending {@code signal} first (e.g. INT for PostgreSQL's fast shutdown) and SIGKILL after 15 s.
     */
    public static void stopUsing(String dir, String signal, String what) {
        stopUsing(List.of(dir), signal, what);
    }

    /** As {@link #stopUsing(String, String, String)} for processes that name any of {@code dirs}, in one scan. */
    public static void stopUsing(List<String> dirs, String signal, String what) {
        String any = dirs.stream().map(Pattern::quote).collect(Collectors.joining("|", "(?:", ")"));
        Pattern p = Pattern.compile(any + "(?=$|[/\\s\"'])");
        long self = ProcessHandle.current().pid();
        List<ProcessHandle> stale = ProcessHandle.allProcesses()
                .filter(h -> h.pid() != self)
                .filter(h -> h.info().commandLine().map(c -> p.matcher(c).find()).orElse(false))
                .toList();
        for (ProcessHandle h : stale) {
            LOG.warn("Stopping a leftover {} process (pid {}) from an earlier run: {}", what, h.pid(),
                    h.info().commandLine().orElse("?"));
            signal(h, signal);
            if (!ManagedProcess.waitFor(h, Duration.ofSeconds(15))) {
                h.destroyForcibly();
                ManagedProcess.waitFor(h, Duration.ofSeconds(5));
            }
        }
    }

    private static void signal(ProcessHandle h, String signal) {
        if ("TERM".equals(signal)) {
            h.destroy();
            return;
        }
        try {
            new ProcessBuilder("kill", "-s", signal, Long.toString(h.pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            h.destroy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
