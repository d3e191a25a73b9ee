package io.overseer.chaos;

import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.BrokerNode;
import io.overseer.launcher.PostgresNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the fault schedule, one fault at a time, on its own thread: each at its planned time (or
 * as soon as the previous one is healed, if that took longer), each healed before the next. A fault whose
 * target is not there (an instance the launcher is still restarting) waits for it, within a bound, so the
 * seed's choices are kept; if the bound passes, the fault is recorded as not injected, with why.
 */
final class FaultInjector {

    private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);
    /** A killed Payara Micro takes 20-60 s to be back on this machine under load. */
    static final Duration TARGET_WAIT = Duration.ofSeconds(150);

    private final ChaosStack stack;
    private final SimulatorClient simulator;
    private final List<InjectedFault> done = new CopyOnWriteArrayList<>();

    FaultInjector(ChaosStack stack, SimulatorClient simulator) {
        this.stack = stack;
        this.simulator = simulator;
    }

    /** Runs the whole schedule from {@code t0} (System.nanoTime of the first submission); returns when done. */
    void run(List<PlannedFault> plan, long t0) throws InterruptedException {
        for (PlannedFault fault : plan) {
            long wait = t0 + fault.at().toNanos() - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000);
            }
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
            long took = (System.nanoTime() - started) / 1_000_000;
            done.add(new InjectedFault(fault, (started - t0) / 1_000_000, took, injected, note));
            LOG.info("Fault {} {} ({} ms){}", fault.describe(), injected ? "done" : "NOT injected", took,
                    note.isEmpty() ? "" : ": " + note);
        }
    }

    List<InjectedFault> done() {
        return new ArrayList<>(done);
    }

    private String inject(PlannedFault f) throws Exception {
        return switch (f.kind()) {
            case APP_KILL -> killInstance(f);
            case APP_PAUSE -> pause(liveInstance(f).pid(), f.hold(), "instance " + (f.instance() + 1));
            case BROKER_KILL -> killBroker(f.hold());
            case BROKER_PAUSE -> pause(stack.broker().pid(), f.hold(), "broker");
            case DB_KILL -> killDatabase(f.hold());
            case SIM_HANG -> simulatorRule(f, "hang");
            case SIM_LATENCY -> simulatorRule(f, "latency");
            case SIM_5XX -> simulatorRule(f, "error");
            case SIM_FATAL -> simulatorRule(f, "fatal");
            case BROKER_PRIMARY -> throw new UnsupportedOperationException("broker-primary needs --broker-ha, not built yet");
        };
    }

    /** The launcher's supervisor sees the process die and starts it again (backoff 2 s, doubling). */
    private String killInstance(PlannedFault f) throws InterruptedException {
        AppServerNode node = liveInstance(f);
        long pid = node.pid();
        node.kill9();
        return "pid " + pid + " killed; the launcher's supervisor restarts it";
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
        broker.kill9();
        Thread.sleep(down.toMillis());
        long t = System.nanoTime();
        broker.restart(); // the same instance and journal, as a service manager would
        return "pid " + pid + " killed, restarted on its journal in " + (System.nanoTime() - t) / 1_000_000 + " ms";
    }

    private String killDatabase(Duration down) throws Exception {
        PostgresNode postgres = stack.postgres();
        long pid = postgres.pid();
        postgres.kill9();
        Thread.sleep(down.toMillis());
        long t = System.nanoTime();
        postgres.start(); // crash recovery from the WAL
        return "postmaster " + pid + " killed, recovered in " + (System.nanoTime() - t) / 1_000_000 + " ms";
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

    /** The planned instance once it is up (it may still be restarting after an earlier kill). */
    private AppServerNode liveInstance(PlannedFault f) throws InterruptedException {
        AppServerNode node = stack.instances().get(f.instance());
        long deadline = System.nanoTime() + TARGET_WAIT.toNanos();
        while (!node.isAlive() || !Health.ready(node.baseUrl())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("instance " + (f.instance() + 1) + " was not back within "
                        + TARGET_WAIT.toSeconds() + " s");
            }
            Thread.sleep(500);
        }
        return node;
    }
}
