package io.overseer.launcher;

import java.util.List;
import java.util.Locale;

/**
 * Which JIT compilers the application server's JVM runs (--server-jit).
 *
 * <p>{@link #C1} by default: on the two-core machines the benchmark and CI run on, the C2 compiler thread
 * was most of the server's CPU long after the start — 80 % of it for a lone order after 6,000 warm-up
 * orders, 45–63 CPU-ms per idle second — and it took that time from the orders. With C1 alone, the same
 * full benchmark ran the bursts 12–84 % faster at half the CPU per order, a lone order cost 29 CPU-ms in the
 * server instead of 203–265, and Payara Micro was ready in 9 s instead of 13–16 (BENCHMARKS.md, decision 19).
 * {@link #TIERED} is the JVM's own default (C1, then C2 for the hottest code), for machines with cores to
 * spare or a steady load long enough to repay C2's work: measure it there with {@code ./bench}.
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
