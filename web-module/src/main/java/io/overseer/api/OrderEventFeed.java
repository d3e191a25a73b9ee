package io.overseer.api;

import io.overseer.platform.Json;
import io.overseer.statestore.HistoryView;
import io.overseer.statestore.OrderQueries;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ServiceUnavailableException;
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
 * between instances. A client's stream ends after the task reaches a state it rests in (Processed,
 * Compensated, Error), or when writing to it fails (the client left; found at the latest by the
 * keep-alive comment every {@value #KEEP_ALIVE_SECONDS} s).
 */
@ApplicationScoped
public class OrderEventFeed {

    private static final Logger LOG = Logger.getLogger(OrderEventFeed.class.getName());
    static final long TICK_MILLIS = 250;
    static final long KEEP_ALIVE_SECONDS = 15;
    /** Open streams per instance; past it a new one is refused with 503 rather than slowing all. */
    static final int MAX_WATCHERS = 1000;

    /** One client's stream: the order and the last event it was sent. Touched by one thread at a time. */
    private static final class Watcher {
        final String orderId;
        final SseEventSink sink;
        final Sse sse;
        volatile int lastSeq;
        volatile long lastSentNanos = System.nanoTime();

        Watcher(String orderId, SseEventSink sink, Sse sse, int lastSeq) {
            this.orderId = orderId;
            this.sink = sink;
            this.sse = sse;
            this.lastSeq = lastSeq;
        }
    }

    private final Map<Watcher, Boolean> watchers = new ConcurrentHashMap<>();
    private ScheduledFuture<?> ticker;

    @Resource
    ManagedScheduledExecutorService executor;
    @Inject
    OrderQueries queries;

    /**
     * Sends {@code backlog} (entries after the client's Last-Event-ID) on the caller's thread, then either
     * ends the stream (the order already rests) or hands it to the ticker for what comes next.
     */
    void watch(String orderId, int lastSeq, List<HistoryView> backlog, boolean resting, SseEventSink sink, Sse sse) {
        if (watchers.size() >= MAX_WATCHERS) {
            throw new ServiceUnavailableException("Too many open event streams; retry later", 5L);
        }
        Watcher watcher = new Watcher(orderId, sink, sse, lastSeq);
        if (!send(watcher, backlog) || resting) {
            sink.close();
            return;
        }
        startTicker();
        watchers.put(watcher, Boolean.TRUE);
    }

    private synchronized void startTicker() {
        if (ticker == null || ticker.isDone()) {
            ticker = executor.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    void tick() {
        try {
            watchers.keySet().removeIf(w -> w.sink.isClosed());
            if (watchers.isEmpty()) {
                return;
            }
            List<Watcher> now = List.copyOf(watchers.keySet());
            int from = now.stream().mapToInt(w -> w.lastSeq).min().orElse(0);
            Map<String, List<HistoryView>> news = queries.historySince(
                    now.stream().map(w -> w.orderId).distinct().toList(), from);
            for (Watcher watcher : now) {
                deliver(watcher, news.getOrDefault(watcher.orderId, List.of()));
            }
        } catch (RuntimeException e) {
            // Never let one failure stop the ticker (a scheduled task that throws is not run again).
            LOG.log(Level.WARNING, "Order event tick failed; the next tick tries again", e);
        }
    }

    private void deliver(Watcher watcher, List<HistoryView> entries) {
        List<HistoryView> fresh = entries.stream().filter(e -> e.seq() > watcher.lastSeq).toList();
        boolean open = fresh.isEmpty() ? keepAlive(watcher) : send(watcher, fresh);
        if (!open || endsTask(fresh)) {
            watchers.remove(watcher);
            watcher.sink.close();
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

    private boolean send(Watcher watcher, List<HistoryView> entries) {
        for (HistoryView entry : entries) {
            boolean sent = write(watcher, watcher.sse.newEventBuilder().id(Integer.toString(entry.seq()))
                    .name("transition").data(Json.write(entry)).build());
            if (!sent) {
                return false;
            }
            watcher.lastSeq = entry.seq();
        }
        return true;
    }

    private boolean keepAlive(Watcher watcher) {
        if (System.nanoTime() - watcher.lastSentNanos < TimeUnit.SECONDS.toNanos(KEEP_ALIVE_SECONDS)) {
            return true;
        }
        return write(watcher, watcher.sse.newEventBuilder().comment("keep-alive").build());
    }

    /** False when the client is gone: its stream is then dropped. */
    private static boolean write(Watcher watcher, jakarta.ws.rs.sse.OutboundSseEvent event) {
        if (watcher.sink.isClosed()) {
            return false;
        }
        try {
            watcher.sink.send(event).toCompletableFuture().get(5, TimeUnit.SECONDS);
            watcher.lastSentNanos = System.nanoTime();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            LOG.log(Level.FINE, "Event stream of order {0} closed by the client", watcher.orderId);
            return false;
        }
    }

    @PreDestroy
    void closeAll() {
        if (ticker != null) {
            ticker.cancel(false);
        }
        watchers.keySet().forEach(w -> w.sink.close());
        watchers.clear();
    }
}
