package io.overseer.chaos;

import java.time.Duration;

/**
 * One fault of the schedule, every choice already made from the seed.
 *
 * @param at        when it starts, counted from the first submission
 * @param hold      how long it lasts (a pause, an outage, a simulator rule); zero for app-kill, whose
 *                  instance comes back when the launcher's watchdog restarts it, and for db-failover, whose
 *                  host the database's watch starts again (after {@link ChaosStack#DB_RESTART_DELAY})
 * @param instance  the application instance it hits (0-based), for app-kill and app-pause
 * @param operation the simulator operation a rule applies to ("*": every one), for the sim-* kinds
 * @param rate      the share of calls a simulator rule affects
 * @param latencyMs the delay of sim-latency
 */
public record PlannedFault(int index, FaultKind kind, Duration at, Duration hold, int instance, String operation,
                           double rate, long latencyMs) {

    /** One line for the report and the log: what will be done, or was. */
    public String describe() {
        String what = switch (kind) {
            case APP_KILL -> "kill -9 instance " + (instance + 1);
            case APP_PAUSE -> "SIGSTOP instance " + (instance + 1) + " for " + seconds(hold);
            case BROKER_KILL -> "kill -9 the broker (--broker-ha: the backup, restarted by the pair), down " + seconds(hold);
            case BROKER_PAUSE -> "SIGSTOP the broker (--broker-ha: the active node) for " + seconds(hold);
            case BROKER_PRIMARY -> "kill -9 the active primary broker (the pair's watch restarts it, it fails back)";
            case DB_KILL -> "kill -9 PostgreSQL, down " + seconds(hold) + " (--db-ha: the primary's, restarted by its Patroni)";
            case DB_FAILOVER -> "kill -9 the primary database host (the standby takes over; the watch restarts the host)";
            case SIM_HANG -> "simulator hangs " + percent() + " of " + operation + " for " + seconds(hold);
            case SIM_LATENCY -> "simulator answers " + operation + " " + latencyMs + " ms late for " + seconds(hold);
            case SIM_5XX -> "simulator answers 503 to " + percent() + " of " + operation + " for " + seconds(hold);
            case SIM_FATAL -> "simulator refuses " + percent() + " of " + operation + " with 422 for " + seconds(hold);
            case APP_DB_CUT -> "cut instance " + (instance + 1) + " from both database hosts for " + seconds(hold);
            case APP_BROKER_CUT -> "cut instance " + (instance + 1) + " from the broker for " + seconds(hold);
            case APP_ISOLATED -> "isolate instance " + (instance + 1) + " (link down) for " + seconds(hold);
            case DB_PRIMARY_ISOLATED -> "isolate the primary database host (link down) for " + seconds(hold);
            case BROKER_PAIR_CUT -> "cut the broker's two nodes from each other for " + seconds(hold);
        };
        return String.format("#%d at %s: %s", index + 1, seconds(at), what);
    }

    private String percent() {
        return Math.round(rate * 100) + "%";
    }

    private static String seconds(Duration d) {
        return String.format("%.1f s", d.toMillis() / 1000.0);
    }
}
