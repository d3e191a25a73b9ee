package io.overseer.messaging;

import io.overseer.platform.AfterCommit;
import io.overseer.platform.Clocks;
import io.overseer.platform.Heartbeat;
import io.overseer.platform.Progress;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every message the application sends about its work leaves through here, AFTER the database transaction
 * that decided it has committed — PostgreSQL is the only transactional truth, messages are hints.
 *
 * <p>Why: a send inside the database's transaction makes it an XA transaction with the broker (two-phase,
 * a journal sync per message), and makes every transition wait on the broker — during a broker outage,
 * request threads hung for minutes. Here a transition only appends to an in-memory queue on commit; a
 * sender thread drains whatever waits in its lane and sends it in one broker transaction, batching
 * parcels that share a batch key into one message ({@link CourierSender}). Under light load a drain is
 * one parcel, so latency stays low; under load drains grow by themselves.
 *
 * <p>One lane by default ({@code overseer.messaging.senders}): measured on 2 cores, four lanes cost 17 %
 * more CPU per order and ran 25 % slower end to end (smaller drains, more messages and broker
 * transactions — BENCHMARKS.md). More lanes are for a sender that cannot keep up on bigger machines.
 * With several, parcels that may be reordered (batched ones: hints, requests and replies, each fenced in
 * the state store) go to the emptiest lane; a parcel sent alone (a notification, an alert) always goes
 * to the lane of its destination, so that one consumer receives them in the order in which their
 * transactions committed.
 *
 * <p>What may be lost, and who recovers it: parcels still queued when the process dies, parcels dropped
 * because the queue is full during a long broker outage, and parcels whose expiry passed while the broker
 * was away. Each is a hint whose loss the state store survives: a Pending order is found by the
 * stranded-order poller, a claimed attempt whose request or reply is lost expires and the supervisor
 * retries it, and every consumer is idempotent against a repeated or late message (epoch and token).
 * While the broker is away the sender retries with a short capped backoff, so work resumes within about a
 * second of the broker's return; the failure is logged once per outage, not once per message.
 *
 * <p>Long because the lanes, the queue bound, the outage backoff and the after-commit hand-off share their state
 * and their concurrency rules; split, the rules would be harder to check.
 */
@ApplicationScoped
public class Courier {

    private static final Logger LOG = Logger.getLogger(Courier.class.getName());
    private static final Object PENDING = Courier.class.getName() + ".pending";
    private static final long RETRY_INITIAL_MS = 100;
    private static final long RETRY_CAP_MS = 1000;

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;
    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;
    @Inject
    CourierSender sender;
    @Inject
    Event<Delivered> delivered;
    @Inject
    Clocks clocks;
    @Inject
    Progress progress;
    @Inject
    @ConfigProperty(name = "overseer.messaging.queue-capacity", defaultValue = "100000")
    int capacity;
    /** Items per batch message: bounds a message's size and the work one delivery holds. */
    @Inject
    @ConfigProperty(name = "overseer.messaging.max-batch", defaultValue = "100")
    int maxBatch;
    /** Parcels sent per broker transaction. */
    @Inject
    @ConfigProperty(name = "overseer.messaging.max-drain", defaultValue = "1000")
    int maxDrain;

    /**
     * How the hops of an order's work travel ({@link CourierSender}'s class comment, decision 0026):
     * {@code non-persistent} or {@code persistent}. Checked at start: a misspelling fails the deployment.
     */
    @Inject
    @ConfigProperty(name = "overseer.messaging.hops", defaultValue = "non-persistent")
    String hops;
    private boolean persistentHops;

    /** Sender threads, each with its own lane (queue); see the class comment for why one by default. */
    @Inject
    @ConfigProperty(name = "overseer.messaging.senders", defaultValue = "1")
    int senders;

    private Lane[] lanes;
    private volatile boolean running = true;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong turn = new AtomicLong();
    /** Lanes whose last send failed: the outage is logged when the first fails and when the last recovers. */
    private final AtomicInteger failingLanes = new AtomicInteger();
    /** A send that takes longer than this is a broker that does not answer (frozen, or a half-open link). */
    private static final long SLOW_SEND_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** Made at deployment, not at the first send: a setting it refuses fails the deployment, naming itself. */
    void deployed(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        // the observer's instance is this bean: its @PostConstruct has run by now
    }

    @PostConstruct
    void start() {
        if (senders < 1) {
            throw new IllegalStateException("overseer.messaging.senders must be at least 1, not " + senders);
        }
        persistentHops = switch (hops) {
            case "persistent" -> true;
            case "non-persistent" -> false;
            default -> throw new IllegalStateException("overseer.messaging.hops must be persistent or non-persistent, not '"
                    + hops + "'");
        };
        lanes = new Lane[senders];
        for (int i = 0; i < senders; i++) {
            lanes[i] = new Lane(Math.max(1, capacity / senders), progress.watch("courier lane " + i));
            lanes[i].worker = threads.newThread(lanes[i]::drainLoop);
            lanes[i].worker.setName("overseer-courier-" + i);
            lanes[i].worker.setDaemon(true);
            lanes[i].worker.start();
        }
    }

    /**
     * Sends the parcel once the caller's transaction commits (never, if it rolls back), or now if the
     * caller has no transaction.
     */
    public void send(Parcel parcel) {
        int status = transactions.getTransactionStatus();
        if (status == Status.STATUS_NO_TRANSACTION) {
            offer(List.of(parcel));
            return;
        }
        if (status != Status.STATUS_ACTIVE) {
            return; // marked for rollback (or ending): what it decided will not happen
        }
        AfterCommit.add(transactions, PENDING, parcel, this::offer);
    }

    private void offer(List<Parcel> parcels) {
        int lost = 0;
        Lane free = null;
        for (Parcel parcel : parcels) {
            Lane lane;
            if (parcel.batchKey() == null) {
                lane = lanes[Math.floorMod(parcel.destination().hashCode(), lanes.length)];
            } else {
                lane = free == null ? (free = emptiest()) : free;
            }
            if (!lane.queue.offer(parcel)) {
                lost++;
            }
        }
        if (lost > 0 && dropped.getAndAdd(lost) == 0) {
            LOG.log(Level.WARNING, "Outgoing message queue full ({0}): messages are being dropped; the poller and"
                    + " the supervisor recover the work they would have started", capacity);
        }
    }

    /** The lane with the fewest waiting parcels, looking from the next lane in turn (so idle lanes share). */
    private Lane emptiest() {
        int start = (int) Math.floorMod(turn.getAndIncrement(), (long) lanes.length);
        Lane best = lanes[start];
        for (int i = 1; i < lanes.length && !best.queue.isEmpty(); i++) {
            Lane lane = lanes[(start + i) % lanes.length];
            if (lane.queue.size() < best.queue.size()) {
                best = lane;
            }
        }
        return best;
    }

    /**
     * Whether the broker is refusing this instance's sends right now. While it does, nothing the
     * application decides can reach an agent: the supervisor then holds off, so that a broker outage
     * does not spend the retries of attempts whose requests could not even be sent.
     */
    public boolean isStalled() {
        for (Lane lane : lanes) {
            if (lane.isStalled()) {
                return true;
            }
        }
        return false;
    }

    /**
     * One sender thread and the parcels it sends, in the order they were queued. Its loop turns at least
     * every 200 ms and beats each time; a send is a wait on the broker (during an outage a send blocks
     * until the broker answers), so only a lane stuck in its own code counts against liveness.
     */
    private final class Lane {
        final BlockingQueue<Parcel> queue;
        final Heartbeat heartbeat;
        Thread worker;
        /** Since when the broker has been refusing this lane's sends (nanoTime), or 0 while sends go through. */
        volatile long failingSince;
        /** Since when the send under way has been waiting for the broker (nanoTime), or 0 if none is. */
        volatile long sendingSince;

        Lane(int capacity, Heartbeat heartbeat) {
            queue = new LinkedBlockingQueue<>(capacity);
            this.heartbeat = heartbeat;
        }

        boolean isStalled() {
            long sending = sendingSince;
            return failingSince != 0 || (sending != 0 && System.nanoTime() - sending > SLOW_SEND_NANOS);
        }

        private void drainLoop() {
            while (running || !queue.isEmpty()) {
                heartbeat.beat();
                List<Parcel> drain = new ArrayList<>();
                try {
                    Parcel first = queue.poll(200, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    drain.add(first);
                    queue.drainTo(drain, maxDrain - 1);
                    deliver(drain);
                } catch (InterruptedException e) {
                    if (!running) {
                        return;
                    }
                }
            }
        }

        /**
         * Retries until the broker takes the drain; parcels that expire meanwhile are left out. A failure
         * that is not the broker's (a bug: a body that cannot be written) drops the drain instead of blocking
         * every later message: the poller and the supervisor recover what it would have started.
         */
        private void deliver(List<Parcel> drain) throws InterruptedException {
            long wait = RETRY_INITIAL_MS;
            int failures = 0;
            while (true) {
                try {
                    sendingSince = System.nanoTime();
                    heartbeat.waitingOnBroker();
                    try {
                        if (!persistentHops && drain.stream().allMatch(parcel -> Destinations.isHop(parcel.destination()))) {
                            sender.sendHops(drain, maxBatch);
                        } else {
                            sender.send(drain, maxBatch, persistentHops);
                        }
                    } finally {
                        sendingSince = 0;
                        heartbeat.beat();
                    }
                    if (failingSince != 0) {
                        failingSince = 0;
                        if (failingLanes.decrementAndGet() == 0) {
                            LOG.log(Level.WARNING, "Broker reachable again; outgoing messages flow");
                        }
                    }
                    announceReceipts(drain);
                    return;
                } catch (BrokerUnavailableException | RuntimeException e) {
                    if (isBug(e)) {
                        LOG.log(Level.SEVERE, "Dropped " + drain.size() + " outgoing messages that could not be written", e);
                        return;
                    }
                    failures++;
                    if (failingSince == 0) {
                        failingSince = System.nanoTime();
                        if (failingLanes.getAndIncrement() == 0) { // once per outage, not once per lane
                            LOG.log(Level.WARNING, "Could not send " + drain.size() + " outgoing messages; retrying"
                                    + " every " + RETRY_CAP_MS + " ms at most until the broker takes them: " + e);
                        }
                    }
                    if (!running && failures > 3) {
                        LOG.log(Level.WARNING, "Shutting down: {0} outgoing messages not sent", drain.size() + queue.size());
                        queue.clear();
                        return;
                    }
                    var now = clocks.now();
                    drain.removeIf(parcel -> parcel.isExpired(now));
                    if (drain.isEmpty()) {
                        return;
                    }
                    Thread.sleep(wait);
                    wait = Math.min(RETRY_CAP_MS, wait * 2);
                }
            }
        }
    }

    /** A failure no retry can cure: the messages themselves are wrong, not the broker's state. */
    private static boolean isBug(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof jakarta.json.bind.JsonbException || cause instanceof ClassCastException
                    || cause instanceof NullPointerException || cause instanceof IllegalArgumentException) {
                return true;
            }
        }
        return false;
    }

    private void announceReceipts(List<Parcel> drain) {
        List<String> receipts = drain.stream().map(Parcel::receipt).filter(java.util.Objects::nonNull).toList();
        if (receipts.isEmpty()) {
            return;
        }
        try {
            delivered.fire(new Delivered(receipts));
        } catch (RuntimeException e) {
            // The durable copies stay and are sent again: at least once, not lost.
            LOG.log(Level.WARNING, "Could not confirm {0} delivered messages: {1}", new Object[] {receipts.size(), e});
        }
    }

    /** Lets the senders finish what is queued, briefly: the work is safe in PostgreSQL either way. */
    @PreDestroy
    void stop() {
        running = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        for (Lane lane : lanes) {
            try {
                lane.worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lane.worker.interrupt();
            progress.forget(lane.heartbeat);
        }
    }
}
