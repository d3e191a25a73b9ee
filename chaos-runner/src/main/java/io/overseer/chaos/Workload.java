package io.overseer.chaos;

import io.overseer.chaos.History.Submission;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the planned submissions to client threads at a fixed rate (order i is due at i / rate on the
 * {@link PlanClock}, which waits for the faults planned before it). A
 * submission that waits on an outage holds up only its own thread; there are enough of them for the
 * longest outage at the planned rate to pile up without slowing the pace.
 */
final class Workload {

    private static final Logger LOG = LoggerFactory.getLogger(Workload.class);
    static final int CLIENTS = 48;

    private final RestSubmitter rest;
    private final JmsSubmitter jms;
    private final ConcurrentLinkedQueue<Submission> records = new ConcurrentLinkedQueue<>();
    private final AtomicInteger failures = new AtomicInteger();

    Workload(RestSubmitter rest, JmsSubmitter jms) {
        this.rest = rest;
        this.jms = jms;
    }

    /** Submits the whole plan on the shared clock and returns once every submitter has its outcome. */
    void run(List<PlannedOrder> plan, double rate, PlanClock clock) throws InterruptedException {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            double interval = 1e9 / rate;
            for (PlannedOrder order : plan) {
                long wait = clock.dueNanos(Duration.ofNanos((long) (order.index() * interval))) - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                clients.execute(() -> submit(order));
                if ((order.index() + 1) % 200 == 0) {
                    LOG.info("{} of {} submissions handed out, {} recorded; the schedule runs {} ms late",
                            order.index() + 1, plan.size(), records.size(), clock.lagMillis());
                }
            }
        } finally {
            clients.shutdown();
            // bounded: each submitter gives up at its deadline (twice, with a duplicate)
            if (!clients.awaitTermination(10, TimeUnit.MINUTES)) {
                clients.shutdownNow();
                throw new IllegalStateException("submitters still running 10 min after the last was handed out");
            }
        }
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " submitters failed in the runner itself; see the log");
        }
    }

    private void submit(PlannedOrder order) {
        try {
            Submission s = order.channel() == PlannedOrder.Channel.REST ? rest.submit(order) : jms.submit(order);
            if (s != null) {
                records.add(s);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failures.incrementAndGet(); // a bug of the runner: the run cannot be judged
            LOG.error("submitter for {} failed", order.key(), e);
        }
    }

    List<Submission> records() {
        return List.copyOf(records);
    }
}
