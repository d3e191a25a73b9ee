package io.overseer.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one chaos run does. {@code --short} is the CI preset (1,000 orders, every fault kind twice); any
 * flag given beside it wins over the preset, wherever it stands on the command line.
 *
 * @param duration   the window over which faults are spread; by default as long as the submissions last
 * @param quietPeriod after the last fault is healed and the last order submitted: how long every order has
 *                    to reach a final state (the bound the checker states)
 */
public record ChaosOptions(int orders, double rate, Duration duration, List<FaultKind> faults, int faultsPerKind,
                           long seed, int instances, Duration quietPeriod, Path out, boolean brokerHa,
                           boolean dbHa, boolean partitions, boolean shortRun, boolean help) {

    static final String USAGE = """
            Usage: ./chaos [--short] [options]
            Starts its own stack (PostgreSQL or with --db-ha a replicated PostgreSQL under Patroni, Artemis or
            with --broker-ha a replicated Artemis pair, simulator, N Payara Micro instances) on free loopback
            ports, submits three-step orders over REST and JMS while injecting faults drawn from the seed,
            then checks the history. The last line printed is one JSON object; the exit code is 1 on any
            violation, 2 on a usage error, 3 when the run itself could not be carried out.

              --orders N          orders to submit (default 3000; --short 1000)
              --rate R            orders per second (default 8)
              --duration S        seconds over which faults are spread (default: orders / rate)
              --faults LIST       comma list of fault kinds, or "all" (default all):
                                  app-kill, app-pause, broker-kill, broker-pause, db-kill,
                                  sim-hang, sim-latency, sim-5xx, sim-fatal, broker-primary (needs --broker-ha),
                                  db-failover (needs --db-ha), app-db-cut, app-broker-cut, app-isolated,
                                  db-primary-isolated, broker-pair-cut (need --partitions; the last --broker-ha too)
              --faults-per-kind N times each kind is injected (default: enough for one fault every ~12 s, at least 2)
              --seed N            seed of java.util.Random for the schedule and every choice (default: the clock)
              --instances N       application instances (default 2)
              --quiet-period S    after the last fault and submission, seconds every order has to reach a
                                  final state (default 180; --short 150)
              --out DIR           report directory (default target/chaos/run-SEED)
              --broker-ha         the replicated broker pair of ./run --broker-ha; adds broker-primary to "all",
                                  and broker-kill strikes the backup, broker-pause the active node (docs/chaos.md)
              --db-ha             the replicated PostgreSQL of ./run --db-ha (two hosts under Patroni, three etcd
                                  members); adds db-failover to "all", and db-kill strikes the primary's
                                  PostgreSQL only, which its Patroni restarts (docs/chaos.md)
              --partitions        every instance, broker node, database host and the simulator on a host of its
                                  own (a network namespace: root only; needs --db-ha); adds the network's
                                  faults to "all": links cut and healed (docs/network-faults.md)
              --short             the CI preset: 1,000 orders at 8/s, every fault kind twice
              --help              this text
            """;

    /** A usage error: exit code 2, with the message and a pointer to --help. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }

    public static ChaosOptions parse(String[] args, Path root) {
        Map<String, String> given = collect(args);
        boolean shortRun = given.containsKey("--short");
        boolean brokerHa = given.containsKey("--broker-ha");
        boolean dbHa = given.containsKey("--db-ha");
        boolean partitions = given.containsKey("--partitions");
        if (partitions && !dbHa) {
            throw new UsageException("--partitions needs --db-ha: the embedded PostgreSQL cannot be placed on a host of its own");
        }
        int orders = intOf(given, "--orders", shortRun ? 1000 : 3000);
        double rate = doubleOf(given, "--rate", 8);
        if (orders < 1 || rate <= 0) {
            throw new UsageException("--orders and --rate must be positive");
        }
        Duration duration = given.containsKey("--duration") ? Duration.ofSeconds(intOf(given, "--duration", 0))
                : Duration.ofMillis((long) (orders / rate * 1000));
        List<FaultKind> faults = faults(given.getOrDefault("--faults", "all"), brokerHa, dbHa, partitions);
        int perKind = given.containsKey("--faults-per-kind") ? intOf(given, "--faults-per-kind", 2)
                : shortRun ? 2 : Math.max(2, (int) (duration.toSeconds() / (12L * Math.max(1, faults.size()))));
        long seed = given.containsKey("--seed") ? longOf(given, "--seed") : System.currentTimeMillis();
        int instances = intOf(given, "--instances", 2);
        if (instances < 1 || instances > 16) {
            throw new UsageException("--instances must be 1..16");
        }
        Duration quiet = Duration.ofSeconds(intOf(given, "--quiet-period", shortRun ? 150 : 180));
        Path out = given.containsKey("--out") ? Path.of(given.get("--out"))
                : root.resolve("target/chaos/run-" + seed);
        return new ChaosOptions(orders, rate, duration, faults, perKind, seed, instances, quiet,
                out.toAbsolutePath().normalize(), brokerHa, dbHa, partitions, shortRun, given.containsKey("--help"));
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

    private static final List<String> FLAGS = List.of("--short", "--broker-ha", "--db-ha", "--partitions", "--help", "-h");

    private static Map<String, String> collect(String[] args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (FLAGS.contains(arg)) {
                given.put(arg.equals("-h") ? "--help" : arg, "");
                continue;
            }
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                given.put(arg.substring(0, eq), arg.substring(eq + 1));
            } else if (arg.startsWith("--") && i + 1 < args.length) {
                given.put(arg, args[++i]);
            } else {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
        }
        List<String> known = List.of("--orders", "--rate", "--duration", "--faults", "--faults-per-kind", "--seed",
                "--instances", "--quiet-period", "--out", "--short", "--broker-ha", "--db-ha", "--partitions", "--help");
        given.keySet().stream().filter(k -> !known.contains(k)).findFirst().ifPresent(k -> {
            throw new UsageException("unknown option " + k);
        });
        return given;
    }

    private static int intOf(Map<String, String> given, String flag, int fallback) {
        return given.containsKey(flag) ? (int) longOf(given, flag) : fallback;
    }

    private static long longOf(Map<String, String> given, String flag) {
        try {
            return Long.parseLong(given.get(flag).trim());
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " needs a whole number, got '" + given.get(flag) + "'");
        }
    }

    private static double doubleOf(Map<String, String> given, String flag, double fallback) {
        try {
            return given.containsKey(flag) ? Double.parseDouble(given.get(flag).trim()) : fallback;
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " needs a number, got '" + given.get(flag) + "'");
        }
    }
}
