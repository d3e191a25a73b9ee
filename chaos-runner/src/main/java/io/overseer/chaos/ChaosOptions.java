package io.overseer.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * What one chaos run does. {@code --short} is the CI preset (1,000 orders, every fault kind twice); any
 * flag given beside it wins over the preset, wherever it stands on the command line. picocli reads the
 * flags ({@link ChaosFlags}); this record holds what they come to, checked.
 *
 * @param duration   the window over which faults are spread; by default as long as the submissions last
 * @param quietPeriod after the last fault is healed and the last order submitted: how long every order has
 *                    to reach a final state (the bound the checker states)
 */
public record ChaosOptions(int orders, double rate, Duration duration, List<FaultKind> faults, int faultsPerKind,
                           long seed, int instances, Duration quietPeriod, Path out, boolean brokerHa,
                           boolean dbHa, boolean partitions, boolean shortRun, boolean help) {

    /** A usage error: exit code 2, with the message and a pointer to --help. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }

    /** --help, as picocli renders {@link ChaosFlags}; chaos-runner/usage.txt holds it for ./chaos without a build. */
    static String usage() {
        return new CommandLine(new ChaosFlags()).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    public static ChaosOptions parse(String[] args, Path root) {
        ChaosFlags f = new ChaosFlags();
        CommandLine commandLine = new CommandLine(f).setExpandAtFiles(false).setOverwrittenOptionsAllowed(true);
        try {
            commandLine.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new UsageException(e.getMessage());
        }
        if (f.partitions && !f.dbHa) {
            throw new UsageException("--partitions needs --db-ha: the embedded PostgreSQL cannot be placed on a host of its own");
        }
        int orders = f.orders != null ? f.orders : f.shortRun ? 1000 : 3000;
        if (orders < 1 || f.rate <= 0) {
            throw new UsageException("--orders and --rate must be positive");
        }
        Duration duration = f.duration != null ? Duration.ofSeconds(f.duration)
                : Duration.ofMillis((long) (orders / f.rate * 1000));
        List<FaultKind> faults = faults(f.faults, f.brokerHa, f.dbHa, f.partitions);
        int perKind = f.faultsPerKind != null ? f.faultsPerKind
                : f.shortRun ? 2 : Math.max(2, (int) (duration.toSeconds() / (12L * Math.max(1, faults.size()))));
        long seed = f.seed != null ? f.seed : System.currentTimeMillis();
        if (f.instances < 1 || f.instances > 16) {
            throw new UsageException("--instances must be 1..16");
        }
        Duration quiet = Duration.ofSeconds(f.quietPeriod != null ? f.quietPeriod : f.shortRun ? 150 : 180);
        Path out = f.out != null ? f.out : root.resolve("target/chaos/run-" + seed);
        return new ChaosOptions(orders, f.rate, duration, faults, perKind, seed, f.instances, quiet,
                out.toAbsolutePath().normalize(), f.brokerHa, f.dbHa, f.partitions, f.shortRun, f.help);
    }

    private static List<FaultKind> faults(String list, boolean brokerHa, boolean dbHa, boolean partitions) {
        if (list.isBlank() || list.equals("all")) {
            return FaultKind.defaults(brokerHa, dbHa, partitions);
        }
        List<FaultKind> kinds = new ArrayList<>();
        for (String name : list.split(",")) {
            FaultKind kind;
            try {
                kind = FaultKind.fromWire(name);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            if (kind.needsBrokerHa() && !brokerHa) {
                throw new UsageException("fault " + kind + " needs --broker-ha (a single broker has no primary to kill)");
            }
            if (kind.needsPartitions() && !partitions) {
                throw new UsageException("fault " + kind + " needs --partitions (on one loopback there is no link to cut)");
            }
            if (kind.needsDbHa() && !dbHa) {
                throw new UsageException("fault " + kind + " needs --db-ha (a single PostgreSQL has no standby to fail over to)");
            }
            if (!kinds.contains(kind)) {
                kinds.add(kind);
            }
        }
        return List.copyOf(kinds);
    }
}
