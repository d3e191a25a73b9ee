package io.overseer.chaos;

import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.BrokerNode;
import io.overseer.launcher.BrokerPair;
import io.overseer.launcher.Node;
import io.overseer.launcher.PostgresNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the fault schedule on its own thread: each at its planned time on the {@link PlanClock}
 * (later if the previous one took longer, which delays the workload as much), each healed before the
 * next — except a link cut ({@link FaultKind#runsBeside()}), which holds on a thread of its own while the
 * faults after it strike, unless one of them must not meet it ({@link FaultKind#holdsBack}). A fault aimed
 * at an instance that is not up (the launcher is still restarting it) strikes the next one that is; if none
 * is within a bound, it is recorded as not injected, with why.
 *
 * <p>Long because it holds one short method per fault kind, beside the schedule that calls them: the faults read
 * as a list.
 */
final class FaultInjector {

    private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);
    /** A killed Payara Micro takes 20-60 s to be back on this machine under load. */
    static final Duration TARGET_WAIT = Duration.ofSeconds(150);
    /**
     * How long the replicated pair may take to be settled again (docs/broker-ha.md: failback 40-45 s after
     * a kill at load average 6-25, most of it the primary's JVM start, plus the backup's resync).
     */
    static final Duration PAIR_WAIT = Duration.ofSeconds(300);
    /** The backup serves 1-3 s after the primary's kill -9 (docs/broker-ha.md). */
    static final Duration TAKEOVER_WAIT = Duration.ofSeconds(30);

    private final ChaosStack stack;
    private final SimulatorClient simulator;
    private final DatabaseFaults database;
    private final NetworkFaults network;
    private final List<InjectedFault> done = new CopyOnWriteArrayList<>();
    /** When each fault struck (System.nanoTime), to tell which ones a fault running beside overlapped. */
    private final Map<Integer, Long> struck = new ConcurrentHashMap<>();
    private final ExecutorService beside = Executors.newSingleThreadExecutor(r -> new Thread(r, "chaos-faults-beside"));
    private PlannedFault besideFault;
    private Future<?> besideRun;

    FaultInjector(ChaosStack stack, SimulatorClient simulator) {
        this.stack = stack;
        this.simulator = simulator;
        this.database = new DatabaseFaults(stack);
        this.network = new NetworkFaults(stack);
    }

    /** Runs the whole schedule on the shared clock; returns when done. */
    void run(List<PlannedFault> plan, PlanClock clock) throws InterruptedException {
        try {
            for (PlannedFault fault : plan) {
                long wait = clock.faultDueNanos(fault.index()) - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000);
                }
                if (besideRun != null && besideFault.kind().holdsBack(fault.kind())) {
                    awaitBeside();
                }
                long started = System.nanoTime();
                clock.faultStarted(fault.index(), started);
                struck.put(fault.index(), started);
                if (fault.kind().runsBeside()) {
                    besideFault = fault;
                    besideRun = beside.submit(() -> {
                        runOne(fault, started - clock.t0());
                        return null;
                    });
                } else {
                    runOne(fault, started - clock.t0());
                }
            }
            awaitBeside();
        } finally {
            beside.shutdownNow(); // interrupted: a fault beside heals in its finally
            clock.finish();
        }
    }

    private void awaitBeside() throws InterruptedException {
        if (besideRun == null) {
            return;
        }
        try {
            besideRun.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the fault beside the schedule failed: " + besideFault.describe(), e.getCause());
        } finally {
            besideRun = null;
        }
    }

    private void runOne(PlannedFault fault, long startedNanos) throws InterruptedException {
        long started = System.nanoTime();
        String note;
        boolean injected;
        try {
            note = inject(fault);
            injected = true;
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            note = "not injected: " + e.getMessage();
            injected = false;
            LOG.warn("Fault {} failed: {}", fault.describe(), e.toString());
        }
        long ended = System.nanoTime();
        long took = (ended - started) / 1_000_000;
        if (fault.kind().runsBeside() && injected) {
            note += "; " + overlapped(fault, started, ended);
        }
        done.add(new InjectedFault(fault, startedNanos / 1_000_000, took, injected, note));
        LOG.info("Fault {} {} ({} ms){}", fault.describe(), injected ? "done" : "NOT injected", took,
                note.isEmpty() ? "" : ": " + note);
    }

    /** The faults that struck while this one held: "beside #3 app-kill, #4 db-failover", or "alone". */
    private String overlapped(PlannedFault fault, long from, long to) {
        String others = struck.entrySet().stream().filter(e -> e.getKey() != fault.index())
                .filter(e -> e.getValue() >= from && e.getValue() <= to).map(Map.Entry::getKey).sorted()
                .map(i -> "#" + (i + 1)).collect(Collectors.joining(", "));
        return others.isEmpty() ? "alone" : "beside " + others;
    }

    /** In the schedule's order (a fault beside the schedule is recorded when it is healed). */
    List<InjectedFault> done() {
        List<InjectedFault> list = new ArrayList<>(done);
        list.sort(Comparator.comparingInt(f -> f.planned().index()));
        return list;
    }

    /** Each db-failover's times, for the report. */
    List<DatabaseFaults.Failover> dbFailovers() {
        return database.failovers();
    }

    private String inject(PlannedFault f) throws Exception {
        return switch (f.kind()) {
            case APP_KILL -> killInstance(f);
            case APP_PAUSE -> {
                AppServerNode node = liveInstance(f);
                yield pause(node.pid(), f.hold(), node.label());
            }
            case BROKER_KILL -> stack.brokerHa() ? killPairNode(PairTarget.BACKUP) : killBroker(f.hold());
            case BROKER_PAUSE -> stack.brokerHa() ? pausePair(f.hold()) : pause(stack.broker().pid(), f.hold(), "broker");
            case BROKER_PRIMARY -> {
                if (!stack.brokerHa()) {
                    // ChaosOptions refuses it first; a plan built another way must not strike the single broker.
                    throw new IllegalStateException("broker-primary needs --broker-ha: a single broker has no primary");
                }
                yield killPairNode(PairTarget.PRIMARY);
            }
            case DB_KILL -> stack.dbHa() ? database.killPrimaryPostgres() : killDatabase(f.hold());
            case DB_FAILOVER -> {
                if (!stack.dbHa()) {
                    // ChaosOptions refuses it first; a plan built another way must not strike the single database.
                    throw new IllegalStateException("db-failover needs --db-ha: a single PostgreSQL has no standby");
                }
                yield database.killPrimaryHost();
            }
            case SIM_HANG -> simulatorRule(f, "hang");
            case SIM_LATENCY -> simulatorRule(f, "latency");
            case SIM_5XX -> simulatorRule(f, "error");
            case SIM_FATAL -> simulatorRule(f, "fatal");
            case APP_DB_CUT -> network.cutInstanceFromDatabase(f);
            case APP_BROKER_CUT -> network.cutInstanceFromBroker(f);
            case APP_ISOLATED -> network.isolateInstance(f);
            case DB_PRIMARY_ISOLATED -> network.isolateDatabasePrimary(f);
            case BROKER_PAIR_CUT -> network.cutBrokerPair(f);
        };
    }

    /**
     * The launcher's watchdog sees the process die and starts it again (backoff 2 s, doubling). A kill
     * never takes the last instance that is up (unless there is only one): with every instance down the
     * faults that follow strike a system that does nothing, for as long as a restart takes (minutes on a
     * busy two-core machine), and prove nothing. It waits for a second instance instead.
     */
    private String killInstance(PlannedFault f) throws InterruptedException {
        long deadline = System.nanoTime() + TARGET_WAIT.toNanos();
        while (stack.instances().size() > 1 && upInstances() < 2) {
            if (System.nanoTime() > deadline) {
                dumpNotReady("no-second-instance");
                throw new IllegalStateException("a second instance was not up within " + TARGET_WAIT.toSeconds()
                        + " s; killing the last one would stop all processing");
            }
            Thread.sleep(500);
        }
        AppServerNode node = liveInstance(f);
        long pid = node.pid();
        node.kill9();
        return node.label() + " pid " + pid + " killed; the launcher's watchdog restarts it";
    }

    private String pause(long pid, Duration hold, String what) throws InterruptedException {
        if (pid <= 0) {
            throw new IllegalStateException(what + " is not running");
        }
        Signals.stopTree(pid);
        try {
            Thread.sleep(hold.toMillis());
        } finally {
            Signals.continueTree(pid); // even when interrupted: a frozen process must never be left behind
        }
        return what + " pid " + pid + " frozen " + hold.toMillis() + " ms";
    }

    private String killBroker(Duration down) throws Exception {
        BrokerNode broker = stack.broker();
        long pid = broker.pid();
        // The same instance and journal, as a service manager would restart it.
        long took = killAndBringBack(broker, down, broker::restart);
        return "pid " + pid + " killed, restarted on its journal in " + took + " ms";
    }

    /** How a killed node comes back. */
    private interface Return {
        void run() throws Exception;
    }

    /** Kills {@code node} (SIGKILL), leaves it down for {@code down}, brings it back: @return the return's ms */
    private static long killAndBringBack(Node node, Duration down, Return back) throws Exception {
        node.kill9();
        Thread.sleep(down.toMillis());
        long t = System.nanoTime();
        back.run();
        return (System.nanoTime() - t) / 1_000_000;
    }

    /**
     * --broker-ha, broker-primary or broker-kill: waits until the pair is settled (never strikes it while it
     * heals), kills the node with SIGKILL and leaves the restart to the pair's watch, as under ./run; the
     * fault lasts until the pair is settled again, so the next broker fault finds it whole.
     */
    private String killPairNode(PairTarget target) throws InterruptedException {
        long waited = awaitPairSettled(stack, "before the fault");
        BrokerPair pair = stack.brokerPair();
        BrokerNode node = target == PairTarget.PRIMARY ? pair.primary() : pair.backup();
        int restartsBefore = pair.restarts();
        long pid = node.pid();
        long backupLog = stack.backupLogSize();
        long t = System.nanoTime();
        node.kill9();
        StringBuilder note = new StringBuilder(node.label() + " pid " + pid + " killed");
        if (waited > 1000) {
            note.append(" (after waiting ").append(waited).append(" ms for the pair to settle)");
        }
        if (target == PairTarget.PRIMARY) {
            long deadline = t + TAKEOVER_WAIT.toNanos();
            while (!pair.backup().acceptsClients() && System.nanoTime() < deadline && pair.primary().pid() == pid) {
                Thread.sleep(100);
            }
            note.append(pair.backup().acceptsClients() || pair.primary().pid() != pid
                    ? "; backup serving after " + (System.nanoTime() - t) / 1_000_000 + " ms"
                    : "; the backup did NOT serve within " + TAKEOVER_WAIT.toSeconds() + " s");
        }
        // The in-sync line must be newer than the kill: the old one is still the log's last for seconds.
        awaitPairSettled(stack, "after the fault", backupLog);
        note.append("; the pair's watch restarted ").append(pair.restarts() - restartsBefore)
                .append(" node(s), settled again (primary serving, backup in sync) ")
                .append((System.nanoTime() - t) / 1_000_000).append(" ms after the kill");
        return note.toString();
    }

    /**
     * --broker-ha, broker-pause: SIGSTOP of the active node (the primary, once settled) for the planned
     * 2-7 s, far below the time the backup takes to give a silent primary up (docs/broker-ha.md, split
     * brain: 91.8 s), then SIGCONT; over when the pair is settled again (a backup that took over would
     * leave two active nodes: the wait then fails the run).
     */
    private String pausePair(Duration hold) throws InterruptedException {
        long waited = awaitPairSettled(stack, "before the fault");
        BrokerNode active = stack.brokerPair().primary();
        String note = pause(active.pid(), hold, active.label() + " (active)");
        awaitPairSettled(stack, "after the fault");
        return note + (waited > 1000 ? " (after waiting " + waited + " ms for the pair to settle)" : "");
    }

    /**
     * Until the pair is {@link PairTarget.Pair#settled}, within {@link #PAIR_WAIT}; fails at once when the
     * watch refused to restart a node. Returns the milliseconds waited.
     */
    static long awaitPairSettled(ChaosStack stack, String when) throws InterruptedException {
        return awaitPairSettled(stack, when, 0);
    }

    /** As {@link #awaitPairSettled(ChaosStack, String)}, the backup's in-sync line from {@code backupLogFrom} on. */
    static long awaitPairSettled(ChaosStack stack, String when, long backupLogFrom) throws InterruptedException {
        long t = System.nanoTime();
        long deadline = t + PAIR_WAIT.toNanos();
        while (true) {
            BrokerPair pair = stack.brokerPair();
            if (pair.refusal() != null) {
                throw new IllegalStateException("the broker pair's watch gave up " + when + ": " + pair.refusal());
            }
            PairTarget.Pair state = stack.pairState(backupLogFrom);
            if (state.settled()) {
                return (System.nanoTime() - t) / 1_000_000;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the broker pair was not settled " + when + " within "
                        + PAIR_WAIT.toSeconds() + " s: " + state.describe());
            }
            Thread.sleep(250);
        }
    }

    private String killDatabase(Duration down) throws Exception {
        PostgresNode postgres = stack.postgres();
        long pid = postgres.pid();
        long took = killAndBringBack(postgres, down, postgres::start); // crash recovery from the WAL
        return "postmaster " + pid + " killed, recovered in " + took + " ms";
    }

    /**
     * Says how many calls the rule affected: a rule set while nothing calls the operation (every order held
     * up by an earlier fault) bites nothing, and the report must not count it as if it had.
     */
    private String simulatorRule(PlannedFault f, String mode) throws Exception {
        long before = simulator.faultsInjected();
        simulator.putFault(f.operation(), mode, f.rate(), f.latencyMs());
        try {
            Thread.sleep(f.hold().toMillis());
        } finally {
            simulator.clearFaults(); // also answers the calls a hang still holds
        }
        return (simulator.faultsInjected() - before) + " calls affected";
    }

    /** Thread dumps of the instances that run but do not answer ready: the evidence of a stall. */
    private void dumpNotReady(String why) {
        stack.instances().stream().filter(n -> n.isAlive() && !Health.ready(n.baseUrl()))
                .forEach(n -> ThreadDumps.save(n, why));
    }

    private long upInstances() {
        return stack.instances().stream().filter(n -> n.isAlive() && Health.ready(n.baseUrl())).count();
    }

    /**
     * The planned instance if it is up; else the next one that is (the planned one is still being restarted
     * after an earlier kill); if none is, waits for one, within {@link #TARGET_WAIT}. Waiting for the planned
     * one alone would hold the schedule, and the workload with it, for a whole restart.
     */
    private AppServerNode liveInstance(PlannedFault f) throws InterruptedException {
        List<AppServerNode> nodes = stack.instances();
        long deadline = System.nanoTime() + TARGET_WAIT.toNanos();
        while (true) {
            for (int k = 0; k < nodes.size(); k++) {
                AppServerNode node = nodes.get((f.instance() + k) % nodes.size());
                if (node.isAlive() && Health.ready(node.baseUrl())) {
                    if (k > 0) {
                        LOG.info("Fault {}: instance {} is not up, striking {} instead", f.describe(),
                                f.instance() + 1, node.label());
                    }
                    return node;
                }
            }
            if (System.nanoTime() > deadline) {
                dumpNotReady("no-instance-up");
                throw new IllegalStateException("no instance was up within " + TARGET_WAIT.toSeconds() + " s");
            }
            Thread.sleep(500);
        }
    }
}
