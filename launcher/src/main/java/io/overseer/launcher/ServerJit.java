package io.overseer.launcher;

import java.util.List;
import java.util.Locale;

/**
 * Which JIT compilers the application server's JVM runs (--server-jit).
 *
 * <p>{@link #C1} by default: on the two-core machines the benchmark and CI run on, the C2 compiler thread
 * was most of the server's CPU long after the start — 80 % of it for a lone order after 6,000 warm-up
 * orders, 45–63 CPU-ms per idle second — and it took that time from the orders. With C1 alone, a lone
 * order cost the server 29–38 CPU-ms instead of 203–265 and took half as long, the server idled at 7–11
 * CPU-ms per second, stayed near 600 MiB and was ready in 9–11 s instead of 13–16 (BENCHMARKS.md, decision
 * 19). Its code is slower flat out: an authenticated request cost the server 0.73–1.04 CPU-ms, not 0.56–0.72.
 * {@link #TIERED} is the JVM's own default (C1, then C2 for the hottest code), for machines with cores to
 * spare or a steady load high enough to repay C2's work: measure it there with {@code ./bench}.
 */
public enum ServerJit {
    C1("c1", List.of("-XX:TieredStopAtLevel=1")),
    TIERED("tiered", List.of());

    private final String id;
    private final List<String> jvmOptions;

    ServerJit(String id, List<String> jvmOptions) {
        this.id = id;
        this.jvmOptions = jvmOptions;
    }

    public String id() {
        return id;
    }

    /** The options that select it on the server's java command line. */
    public List<String> jvmOptions() {
        return jvmOptions;
    }

    static String ids() {
        return C1.id + "|" + TIERED.id;
    }

    /** The mode an id names; anything else is a usage error (exit code 2). */
    static ServerJit of(String id) {
        for (ServerJit jit : values()) {
            if (jit.id.equals(id.toLowerCase(Locale.ROOT))) {
                return jit;
            }
        }
        throw new UsageException("--server-jit must be " + ids() + ", not '" + id + "'");
    }
}
