package io.overseer.chaos;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The faults the runner injects, by the part of the stack they hit. Each has the name used by
 * {@code --faults} and in the report. {@link #BROKER_PRIMARY} belongs to the replicated broker
 * ({@code --broker-ha}), {@link #DB_FAILOVER} to the replicated database ({@code --db-ha}): asking for one
 * without its replicated part fails instead of quietly doing something else. Under {@code --broker-ha}
 * the broker kinds strike the pair as {@link PairTarget} says; under {@code --db-ha} {@link #DB_KILL}
 * strikes the primary's PostgreSQL only.
 */
public enum FaultKind {
    /** kill -9 of one application instance; the launcher's watchdog starts it again. */
    APP_KILL("app-kill"),
    /** SIGSTOP of one application instance for a few seconds, then SIGCONT: a long GC pause or a frozen VM. */
    APP_PAUSE("app-pause"),
    /**
     * kill -9 of the broker, restarted by the runner on its journal after a short outage; under --broker-ha
     * kill -9 of the passive backup, restarted by the pair's watch, which then resyncs from the primary.
     */
    BROKER_KILL("broker-kill"),
    /** SIGSTOP of the broker (under --broker-ha: the active node) for a few seconds, then SIGCONT. */
    BROKER_PAUSE("broker-pause"),
    /**
     * kill -9 of the active primary of the replicated pair; needs --broker-ha. The backup takes over, the
     * pair's watch restarts the primary, which syncs from the backup, and the backup fails back to it.
     */
    BROKER_PRIMARY("broker-primary"),
    /**
     * kill -9 of PostgreSQL (postmaster and backends), restarted by the runner: crash recovery. Under
     * --db-ha kill -9 of the primary's postmaster and backends only: its Patroni lives on, still holds the
     * leader lock and starts PostgreSQL again on the same host — crash recovery without a failover.
     */
    DB_KILL("db-kill"),
    /**
     * kill -9 of the primary database host (Patroni and its PostgreSQL); needs --db-ha. Its leader lock
     * expires (Patroni's ttl, 10 s) and the synchronous standby is promoted; the watch starts the old host
     * again after longer than the ttl, and it rejoins as the synchronous standby, rewound if it had diverged.
     */
    DB_FAILOVER("db-failover"),
    /** The simulator holds some calls without answering, until the fault is cleared. */
    SIM_HANG("sim-hang"),
    /** The simulator answers every call late. */
    SIM_LATENCY("sim-latency"),
    /** The simulator answers 503 (nothing applied) to every call for a while: a transient outage. */
    SIM_5XX("sim-5xx"),
    /** The simulator refuses some calls of one operation with 422 (nothing applied): a nontransient failure. */
    SIM_FATAL("sim-fatal"),
    /**
     * One instance cut from both database hosts (blackhole routes both ways) for a while, then healed; needs
     * --partitions. It still reaches the broker, the simulator and the runner.
     */
    APP_DB_CUT("app-db-cut"),
    /** One instance cut from the broker (both nodes with --broker-ha) for a while, then healed; needs --partitions. */
    APP_BROKER_CUT("app-broker-cut"),
    /** One instance's link down (cut from everyone, the runner included) for a while, then up; needs --partitions. */
    APP_ISOLATED("app-isolated"),
    /**
     * The primary database host's link down for longer than Patroni's ttl: it cannot renew its leader lock
     * and demotes itself, the standby is promoted; healed, it rejoins as the standby, rewound. Needs --partitions.
     */
    DB_PRIMARY_ISOLATED("db-primary-isolated"),
    /** The replicated broker's two nodes cut from each other, then healed; needs --partitions and --broker-ha. */
    BROKER_PAIR_CUT("broker-pair-cut");

    private final String wireName;

    FaultKind(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether the fault only exists with the replicated broker. */
    public boolean needsBrokerHa() {
        return this == BROKER_PRIMARY || this == BROKER_PAIR_CUT;
    }

    /** Whether the fault cuts links between hosts of their own (--partitions). */
    public boolean needsPartitions() {
        return this == APP_DB_CUT || this == APP_BROKER_CUT || this == APP_ISOLATED || this == DB_PRIMARY_ISOLATED
                || this == BROKER_PAIR_CUT;
    }

    /**
     * Whether the fault runs beside the faults after it: a link cut, and healed after its hold while the
     * schedule goes on, so that kills, pauses, database and simulator faults strike during the partition.
     * Not db-primary-isolated: like every database fault it waits for a settled cluster before and after.
     */
    public boolean runsBeside() {
        return this == APP_DB_CUT || this == APP_BROKER_CUT || this == APP_ISOLATED || this == BROKER_PAIR_CUT;
    }

    /**
     * Whether {@code next} must wait until this fault, running beside the schedule, is healed. Network faults
     * come one at a time (two cuts of one link would fight over its route). And the broker's nodes cut from
     * each other is never struck by a broker fault: the backup cannot see the primary die through the cut,
     * so the pair's watch would restart the primary beside a backup that activates once its connection's
     * TTL runs out — both active, the split brain one pair cannot avoid (docs/broker-ha.md).
     */
    public boolean holdsBack(FaultKind next) {
        return next.needsPartitions()
                || this == BROKER_PAIR_CUT && (next == BROKER_KILL || next == BROKER_PAUSE || next == BROKER_PRIMARY);
    }

    /** Whether the fault only exists with the replicated database. */
    public boolean needsDbHa() {
        return this == DB_FAILOVER;
    }

    /** Every kind the stack can suffer, with or without the replicated broker and database: the default of --faults. */
    public static List<FaultKind> defaults(boolean brokerHa, boolean dbHa) {
        return defaults(brokerHa, dbHa, false);
    }

    /** As {@link #defaults(boolean, boolean)}, with the network's faults when the hosts are separate. */
    public static List<FaultKind> defaults(boolean brokerHa, boolean dbHa, boolean partitions) {
        return Arrays.stream(values()).filter(k -> brokerHa || !k.needsBrokerHa())
                .filter(k -> dbHa || !k.needsDbHa()).filter(k -> partitions || !k.needsPartitions()).toList();
    }

    public static FaultKind fromWire(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(k -> k.wireName.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown fault kind '" + name + "'; known: "
                        + Arrays.stream(values()).map(FaultKind::wireName).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return wireName;
    }
}
