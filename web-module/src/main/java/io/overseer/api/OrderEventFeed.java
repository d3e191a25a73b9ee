package io.overseer.api;

import io.overseer.query.HistoryView;
import io.overseer.query.OrderQueries;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ServiceUnavailableException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Live progress of orders as Server-Sent Events. Each instance polls the history table for the orders
 * its own clients watch: one query per tick ({@value #TICK_MILLIS} ms) for all of them, whichever
 * instance made the transitions — no JMS listener (not allowed in the web container) and nothing shared
 * between instances. The ticker only hands each client its new events ({@link Subscriber}); they are
 * written on sender threads ({@link EventSenders}), so a client that stops reading delays nobody else. A
 * client's stream ends after the task reaches a state it rests in (Processed, Compensated, Error), when
 * writing to it fails (the client left; found at the latest by the keep-alive comment every
 * {@value #KEEP_ALIVE_SECONDS} s), or when it falls {@value Subscriber#MAX_UNSENT} events behind.
 */
@ApplicationScoped
public class OrderEventFeed {

    private static final Logger LOG = Logger.getLogger(OrderEventFeed.class.getName());
    static final long TICK_MILLIS = 250;
    static final long KEEP_ALIVE_SECONDS = 15;
    /** Open streams per instance; past it a new one is refused with 503 rather than slowing all. */
    static final int MAX_WATCHERS = 1000;
    /** Streams refused, by reason, in metrics: {@code per-user} (429) and {@code instance-full} (503). */
    static final String REFUSED = "overseer.event.streams.refused";

    /** Each open stream and the user it was opened for. */
    private final Map<Subscriber, String> subscribers = new ConcurrentHashMap<>();
    private final Map<String, BurstLog> refusals = new ConcurrentHashMap<>();
    private ScheduledFuture<?> ticker;

    /**
     * Open streams one user may hold on this instance: one viewer must not take every stream (the
     * instance's {@value #MAX_WATCHERS}) from everyone else. Past it: 429 with Retry-After.
     */
    @Inject
    @ConfigProperty(name = "overseer.events.max-streams-per-user", defaultValue = "100")
    int maxPerUser;
    @Inject
    io.micrometer.core.instrument.MeterRegistry metrics;

    @Resource
    ManagedScheduledExecutorService executor;
    @Inject
    OrderQueries queries;
    @Inject
    EventSenders senders;

    /**
     * Hands the client {@code backlog} (entries after its Last-Event-ID), then either ends the stream once
     * that is sent (the order already rests) or has the ticker follow the order.
     */
    void watch(String user, String orderId, int lastSeq, List<HistoryView> backlog, boolean resting, SseEventSink sink,
               Sse sse) {
        Subscriber subscriber = new Subscriber(orderId, lastSeq, sink, Subscriber.Format.of(sse), senders);
        if (!resting) {
            admit(user, subscriber);
        }
        subscriber.hand(backlog);
        if (resting) {
            subscriber.end();
            return;
        }
        startTicker();
    }

    /**
     * Takes the stream on, or refuses it: 429 when its user holds {@link #maxPerUser} already (others still
     * connect), 503 when the instance is full. Each refusal is counted; each kind is logged once per burst.
     */
    private synchronized void admit(String user, Subscriber subscriber) {
        long mine = subscribers.values().stream().filter(user::equals).count();
        if (mine >= maxPerUser) {
            refused("per-user", "user " + user + " holds " + mine + " event streams, the most one user may");
            throw new TooManyStreamsException("You hold " + mine + " open event streams, the most one user may on this"
                    + " instance; close one, or retry later");
        }
        if (subscribers.size() >= MAX_WATCHERS) {
            refused("instance-full", "this instance holds " + MAX_WATCHERS + " event streams, its most");
            throw new ServiceUnavailableException("Too many open event streams; retry later", 5L);
        }
        subscribers.put(subscriber, user);
    }

    /** A user's share of the streams is taken: a 429 problem with Retry-After ({@link ProblemMappers}). */
    static final class TooManyStreamsException extends RuntimeException {
        static final int RETRY_AFTER_SECONDS = 5;

        TooManyStreamsException(String message) {
            super(message);
        }
    }

    private void refused(String reason, String why) {
        metrics.counter(REFUSED, "reason", reason).increment();
        refusals.computeIfAbsent(reason, r -> new BurstLog(LOG, "Event stream refused")).log(why);
    }

    private synchronized void startTicker() {
        if (ticker == null || ticker.isDone()) {
            ticker = executor.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    void tick() {
        try {
            subscribers.keySet().removeIf(subscriber -> !subscriber.isOpen());
            if (subscribers.isEmpty()) {
                return;
            }
            List<Subscriber> now = List.copyOf(subscribers.keySet());
            int from = now.stream().mapToInt(Subscriber::lastSeq).min().orElse(0);
            Map<String, List<HistoryView>> news = queries.historySince(
                    now.stream().map(Subscriber::orderId).distinct().toList(), from);
            for (Subscriber subscriber : now) {
                deliver(subscriber, news.getOrDefault(subscriber.orderId(), List.of()));
            }
        } catch (RuntimeException e) {
            // Never let one failure stop the ticker (a scheduled task that throws is not run again).
            LOG.log(Level.WARNING, "Order event tick failed; the next tick tries again", e);
        }
    }

    /** Hands over what is new for this client; never writes, so never waits for the client. */
    private void deliver(Subscriber subscriber, List<HistoryView> entries) {
        List<HistoryView> fresh = entries.stream().filter(e -> e.seq() > subscriber.lastSeq()).toList();
        boolean open = fresh.isEmpty() ? subscriber.keepAlive(KEEP_ALIVE_SECONDS) : subscriber.offer(fresh);
        if (!open) {
            subscribers.remove(subscriber);
        } else if (endsTask(fresh)) {
            subscribers.remove(subscriber);
            subscriber.end();
        }
    }

    /** Whether the last task-level transition among these leaves the task resting (so the stream ends). */
    static boolean endsTask(List<HistoryView> entries) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (entries.get(i).step() == null) {
                return entries.get(i).endsTask();
            }
        }
        return false;
    }

    @PreDestroy
    void closeAll() {
        if (ticker != null) {
            ticker.cancel(false);
        }
        subscribers.keySet().forEach(Subscriber::leave);
        subscribers.clear();
    }
}
