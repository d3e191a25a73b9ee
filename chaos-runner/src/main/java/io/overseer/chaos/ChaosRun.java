package io.overseer.chaos;

import io.overseer.launcher.AppServerNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run from start to verdict: draw the plan from the seed, start the stack, subscribe to alerts, run the
 * workload and the fault schedule side by side, heal everything, give the orders the quiet period to settle,
 * read the history, check it. The stack is stopped whatever happens.
 */
final class ChaosRun {

    private static final Logger LOG = LoggerFactory.getLogger(ChaosRun.class);

    private final ChaosOptions options;
    private final Path root;
    private final String runId;
    private final String replyQueue;

    ChaosRun(ChaosOptions options, Path root) {
        this.options = options;
        this.root = root;
        this.runId = "s" + Long.toUnsignedString(options.seed(), 36);
        this.replyQueue = "overseer.reply." + JmsSubmitter.USER + ".chaos-" + runId; // the sender's own (SECURITY.md)
    }

    /** The report; throws when the run itself could not be carried out (the stack did not start, …). */
    Report run(ChaosStack stack) throws Exception {
        Random random = new Random(options.seed()); // the one source of every choice: schedule first, then workload
        List<PlannedFault> plan = FaultPlan.draw(random, options.faults(), options.faultsPerKind(), options.duration(),
                options.instances());
        List<PlannedOrder> orders = WorkloadPlan.draw(random, options.orders(), runId);
        Files.writeString(options.out().resolve("plan.txt"), String.join("\n", plan.stream().map(PlannedFault::describe).toList()) + "\n");
        plan.forEach(f -> LOG.info("planned fault {}", f.describe()));

        stack.start();
        LOG.info("Stack up: {}", stack.summary());
        SimulatorClient simulator = new SimulatorClient(stack.simulatorUrl());
        FaultInjector injector = new FaultInjector(stack, simulator);
        try (BrokerReader broker = new BrokerReader(stack.brokerUrl(BrokerReader.URL_PARAMETERS), runId);
             JmsSubmitter jms = new JmsSubmitter(stack.brokerUrl(JmsSubmitter.URL_PARAMETERS), replyQueue);
             NotificationCollector notices = new NotificationCollector(
                     stack.brokerUrl(NotificationCollector.URL_PARAMETERS), replyQueue);
             Balancer balancer = new Balancer(stack.baseUrls())) {
            broker.subscribeToAlerts();
            Workload workload = new Workload(new RestSubmitter(balancer), jms);
            long t0 = System.nanoTime();
            PlanClock clock = new PlanClock(t0, plan);
            AtomicReference<Throwable> faultFailure = new AtomicReference<>();
            Thread faults = new Thread(() -> {
                try {
                    injector.run(plan, clock);
                } catch (Throwable e) {
                    faultFailure.set(e);
                }
            }, "chaos-faults");
            faults.start();
            try {
                workload.run(orders, options.rate(), clock);
            } finally {
                faults.join(); // the schedule ends on its own; a pause in progress is always resumed
            }
            if (faultFailure.get() != null) {
                throw new IllegalStateException("the fault schedule failed", faultFailure.get());
            }
            LOG.info("Workload and faults done after {} s; healing and waiting for the stack", (System.nanoTime() - t0) / 1_000_000_000);
            heal(stack, simulator);
            long quietFrom = System.nanoTime();
            settle(new StoreReader(stack.jdbcUrl()));
            LOG.info("Settled {} s after the last fault and submission; reading the history",
                    (System.nanoTime() - quietFrom) / 1_000_000_000);
            Set<String> alerted = new HashSet<>(broker.alertedOrders());
            alerted.addAll(AlertLog.alertedOrders(stack.logDir()));
            History history = new History(workload.records(), new StoreReader(stack.jdbcUrl()).orders(),
                    simulator.effects(), simulator.appliedTwice(), alerted, notices.drain(),
                    broker.deadLetters(), jms.badAccepted());
            Verdict verdict = HistoryChecker.forDefaultWorkflow().check(history);
            return new Report(options, history, verdict, injector.done(), injector.dbFailovers(),
                    options.quietPeriod().toSeconds());
        }
    }

    /** Every rule cleared, and every node running and ready, before the quiet period starts. */
    private static void heal(ChaosStack stack, SimulatorClient simulator) throws Exception {
        simulator.clearFaults();
        if (stack.brokerHa()) {
            FaultInjector.awaitPairSettled(stack, "after the fault schedule");
        } else if (!stack.broker().isAlive()) {
            throw new IllegalStateException("the broker is not running after the fault schedule");
        }
        if (stack.dbHa()) {
            DatabaseFaults.awaitSettled(stack.postgresHa(), "after the fault schedule");
        } else if (!stack.postgres().isAlive()) {
            throw new IllegalStateException("PostgreSQL is not running after the fault schedule");
        }
        long deadline = System.nanoTime() + FaultInjector.TARGET_WAIT.toNanos();
        for (AppServerNode node : stack.instances()) {
            while (!node.isAlive() || !Health.ready(node.baseUrl())) {
                if (System.nanoTime() > deadline) {
                    ThreadDumps.save(node, "not-ready-after-schedule");
                    throw new IllegalStateException(node.label() + " is not ready " + FaultInjector.TARGET_WAIT.toSeconds()
                            + " s after the fault schedule ended");
                }
                Thread.sleep(500);
            }
        }
    }

    /**
     * Until no order is left in flight and no status notification in the outbox, or the quiet period is
     * over (what is left is then "stuck", or a notification never received). A notification whose first
     * send a fault swallowed is sent again from the outbox 30-40 s later, by whichever instance holds the
     * relay's lease (up to 30 s more if the holder died): the order may be final well before.
     */
    private void settle(StoreReader store) throws Exception {
        long deadline = System.nanoTime() + options.quietPeriod().toNanos();
        long left = store.notFinal();
        while (left > 0 && System.nanoTime() < deadline) {
            Thread.sleep(2000);
            left = store.notFinal();
        }
        LOG.info("{} orders not final at the end of the quiet period", left);
        long unsent = store.notificationsUnsent();
        while (unsent > 0 && System.nanoTime() < deadline) {
            Thread.sleep(2000);
            unsent = store.notificationsUnsent();
        }
        if (unsent > 0) {
            LOG.info("{} status notifications still in the outbox at the end of the quiet period", unsent);
        }
        // Notifications and alerts are sent after the transitions commit: give the last ones a moment.
        Thread.sleep(Duration.ofSeconds(5).toMillis());
    }
}
