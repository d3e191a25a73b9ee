package io.overseer.chaos;

import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * ./chaos's command line as picocli reads it. A null means "not given": the default then depends on
 * --short or on other flags, which {@link ChaosOptions#parse} works out.
 */
@Command(name = "./chaos", customSynopsis = {"./chaos [--short] [options]", ""}, usageHelpWidth = 110,
        sortOptions = false, description = {
            "Starts its own stack (PostgreSQL or with --db-ha a replicated PostgreSQL under Patroni, Artemis or",
            "with --broker-ha a replicated Artemis pair, simulator, N Payara Micro instances) on free loopback",
            "ports, submits three-step orders over REST and JMS while injecting faults drawn from the seed,",
            "then checks the history. The last line printed is one JSON object; the exit code is 1 on any",
            "violation, 2 on a usage error, 3 when the run itself could not be carried out.",
            ""})
final class ChaosFlags {

    @Option(names = "--orders", paramLabel = "N", description = "orders to submit (default 3000; --short 1000)")
    Integer orders;

    @Option(names = "--rate", paramLabel = "R", description = "orders per second (default 8)")
    double rate = 8;

    @Option(names = "--duration", paramLabel = "S",
            description = "seconds over which faults are spread (default: orders / rate)")
    Integer duration;

    @Option(names = "--faults", paramLabel = "LIST", description = {
        "comma list of fault kinds, or \"all\" (default all): app-kill, app-pause, broker-kill, broker-pause,"
                + " db-kill, sim-hang, sim-latency, sim-5xx, sim-fatal, broker-primary (needs --broker-ha),"
                + " db-failover (needs --db-ha), app-db-cut, app-broker-cut, app-isolated, db-primary-isolated,"
                + " broker-pair-cut (need --partitions; the last --broker-ha too)"})
    String faults = "all";

    @Option(names = "--faults-per-kind", paramLabel = "N",
            description = "times each kind is injected (default: enough for one fault every ~12 s, at least 2)")
    Integer faultsPerKind;

    @Option(names = "--seed", paramLabel = "N",
            description = "seed of java.util.Random for the schedule and every choice (default: the clock)")
    Long seed;

    @Option(names = "--instances", paramLabel = "N", description = "application instances (default 2)")
    int instances = 2;

    @Option(names = "--quiet-period", paramLabel = "S", description = "after the last fault and submission,"
            + " seconds every order has to reach a final state (default 180; --short 150)")
    Integer quietPeriod;

    @Option(names = "--out", paramLabel = "DIR", description = "report directory (default target/chaos/run-SEED)")
    Path out;

    @Option(names = "--broker-ha", description = "the replicated broker pair of ./run --broker-ha; adds"
            + " broker-primary to \"all\", and broker-kill strikes the backup, broker-pause the active node"
            + " (docs/chaos.md)")
    boolean brokerHa;

    @Option(names = "--db-ha", description = "the replicated PostgreSQL of ./run --db-ha (two hosts under Patroni,"
            + " three etcd members); adds db-failover to \"all\", and db-kill strikes the primary's PostgreSQL only,"
            + " which its Patroni restarts (docs/chaos.md)")
    boolean dbHa;

    @Option(names = "--partitions", description = "every instance, broker node, database host and the simulator"
            + " on a host of its own (a network namespace: root only; needs --db-ha); adds the network's faults"
            + " to \"all\": links cut and healed (docs/network-faults.md)")
    boolean partitions;

    @Option(names = "--short", description = "the CI preset: 1,000 orders at 8/s, every fault kind twice")
    boolean shortRun;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;
}
