package io.overseer.messaging;

import io.overseer.platform.Clocks;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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
 * request threads hung for minutes. Here a transition only appends to an in-memory queue on commit; one
 * sender thread per instance drains whatever waits and sends it in one broker transaction, batching
 * parcels that share a batch key into one message ({@link CourierSender}). Under light load a drain is
 * one parcel, so latency stays low; under load drains grow by themselves.
 *
 * <p>What may be lost, and who recovers it: parcels still queued when the process dies, parcels dropped
 * because the queue is full during a long broker outage, and parcels whose expiry passed while the broker
 * was away. Each is a hint whose loss the state store survives: a Pending order is found by the
 * stranded-order poller, a claimed attempt whose request or reply is lost expires and the supervisor
 * retries it, and every consumer is idempotent against a repeated or late message (epoch and token).
 * While the broker is away the sender retries with a short capped backoff, so work resumes within about a
 * second of the broker's return; the failure is logged once per outage, not once per message.
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

    private BlockingQueue<Parcel> queue;
    private volatile boolean running = true;
    private Thread worker;
    private final AtomicLong dropped = new AtomicLong();
    /** Since when the broker has been refusing sends (nanoTime), or 0 while sends go through. */
    private volatile long failingSince;
    /** Since when the send under way has been waiting for the broker (nanoTime), or 0 if none is. */
    private volatile long sendingSince;
    /** A send that takes longer than this is a broker that does not answer (frozen, or a half-open link). */
    private static final long SLOW_SEND_NANOS = TimeUnit.SECONDS.toNanos(2);

    @PostConstruct
    void start() {
        queue = new LinkedBlockingQueue<>(capacity);
        worker = threads.newThread(this::drainLoop);
        worker.setName("overseer-courier");
        worker.setDaemon(true);
        worker.start();
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
        @SuppressWarnings("unchecked")
        List<Parcel> pending = (List<Parcel>) transactions.getResource(PENDING);
        if (pending == null) {
            List<Parcel> created = new ArrayList<>();
            transactions.putResource(PENDING, created);
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        offer(created);
                    }
                }
            });
            pending = created;
        }
        pending.add(parcel);
    }

    private void offer(List<Parcel> parcels) {
        int lost = 0;
        for (Parcel parcel : parcels) {
            if (!queue.offer(parcel)) {
                lost++;
            }
        }
        if (lost > 0 && dropped.getAndAdd(lost) == 0) {
            LOG.log(Level.WARNING, "Outgoing message queue full ({0}): messages are being dropped; the poller and"
                    + " the supervisor recover the work they would have started", capacity);
        }
    }

    private void drainLoop() {
        while (running || !queue.isEmpty()) {
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
     * Whether the broker is refusing this instance's sends right now. While it does, nothing the
     * application decides can reach an agent: the supervisor then holds off, so that a broker outage
     * does not spend the retries of attempts whose requests could not even be sent.
     */
    public boolean isStalled() {
        long sending = sendingSince;
        return failingSince != 0 || (sending != 0 && System.nanoTime() - sending > SLOW_SEND_NANOS);
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
                try {
                    sender.send(drain, maxBatch);
                } finally {
                    sendingSince = 0;
                }
                failingSince = 0;
                announceReceipts(drain);
                if (failures > 0) {
                    LOG.log(Level.WARNING, "Broker reachable again after {0} failed sends; outgoing messages flow",
                            failures);
                }
                return;
            } catch (BrokerUnavailableException | RuntimeException e) {
                if (isBug(e)) {
                    LOG.log(Level.SEVERE, "Dropped " + drain.size() + " outgoing messages that could not be written", e);
                    return;
                }
                if (failingSince == 0) {
                    failingSince = System.nanoTime();
                }
                if (failures++ == 0) {
                    LOG.log(Level.WARNING, "Could not send " + drain.size() + " outgoing messages; retrying every "
                            + RETRY_CAP_MS + " ms at most until the broker takes them: " + e);
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

    /** Lets the sender finish what is queued, briefly: the work is safe in PostgreSQL either way. */
    @PreDestroy
    void stop() {
        running = false;
        try {
            worker.join(3000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        worker.interrupt();
    }
}
