package io.overseer.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Once a second: the application server's resident set (VmRSS of /proc/PID/status) and the machine's 1-minute load
 * average, each sample tagged with the phase running, so the report can say both per phase.
 */
final class Sampler implements AutoCloseable {

    record Sample(long atMillis, String phase, long rssKiB, double load1) {
    }

    private final long pid;
    private final List<Sample> samples = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-sampler");
        t.setDaemon(true);
        return t;
    });
    private volatile String phase = "idle";
    private volatile String diedDuring;

    Sampler(long pid) {
        this.pid = pid;
        timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    /** The phase during which the sampled server process disappeared, or null while it lives. */
    String diedDuring() {
        return diedDuring;
    }

    void phase(String name) {
        this.phase = name;
    }

    private void sample() {
        long rss = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone (a crash or a kill; the launcher starts a new one): no sample, and a problem
            if (diedDuring == null) {
                diedDuring = phase;
            }
        }
        double load = loadAverage()[0];
        synchronized (samples) {
            samples.add(new Sample(System.currentTimeMillis(), phase, rss, load));
        }
    }

    static double[] loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
        } catch (IOException | RuntimeException e) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
    }

    /** Max RSS in MiB over the samples of one phase (or all when phase is null). */
    double maxRssMiB(String phaseName) {
        return snapshot(phaseName).stream().mapToLong(Sample::rssKiB).max().orElse(-1) / 1024.0;
    }

    /** min / mean / max of the 1-minute load average during a phase (or all). */
    double[] load(String phaseName) {
        var s = snapshot(phaseName).stream().mapToDouble(Sample::load1).summaryStatistics();
        return s.getCount() == 0 ? new double[] {Double.NaN, Double.NaN, Double.NaN}
                : new double[] {s.getMin(), s.getAverage(), s.getMax()};
    }

    Map<String, Double> maxRssByPhase() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Sample s : snapshot(null)) {
            out.merge(s.phase(), s.rssKiB() / 1024.0, Math::max);
        }
        return out;
    }

    private List<Sample> snapshot(String phaseName) {
        synchronized (samples) {
            return samples.stream().filter(s -> phaseName == null || s.phase().equals(phaseName)).toList();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
