package io.overseer.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.query.HistoryView;
import io.overseer.query.OrderQueries;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.lang.reflect.Proxy;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The feed's ticker and a client that stops reading. On Jersey a send to such a client blocks the thread
 * that makes it once the connection takes no more; here a sink's send blocks until the test ends. The
 * ticker must hand events over and return, and the other clients must get theirs.
 */
class OrderEventFeedTest {

    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-23T12:00:00Z");

    private final CountDownLatch unblock = new CountDownLatch(1);
    private final ExecutorService tickerThread = Executors.newSingleThreadExecutor();
    private volatile Map<String, List<HistoryView>> news = Map.of();
    private final OrderEventFeed feed = new OrderEventFeed();
    private final EventSenders senders = senders();

    @AfterEach
    void release() {
        unblock.countDown();
        tickerThread.shutdownNow();
        feed.closeAll();
        senders.stop();
    }

    @Test
    void aClientThatStopsReadingHoldsUpNeitherTheTickerNorTheOtherClients() throws Exception {
        feed.executor = scheduledExecutorThatNeverRuns();
        feed.queries = new OrderQueries() {
            @Override
            public Map<String, List<HistoryView>> historySince(Collection<String> orderIds, int afterSeq) {
                return news;
            }
        };
        feed.senders = senders;
        BlockingSink stalled = new BlockingSink(unblock);
        BlockingSink reading = new BlockingSink(null);
        feed.maxPerUser = 10;
        feed.metrics = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        feed.watch("alice", "o-stalled", 0, List.of(), false, stalled, sse());
        feed.watch("alice", "o-read", 0, List.of(), false, reading, sse());

        for (int seq = 1; seq <= 3; seq++) {
            news = Map.of("o-stalled", List.of(entry(seq)), "o-read", List.of(entry(seq)));
            tickerThread.submit(feed::tick).get(5, TimeUnit.SECONDS);   // a stuck ticker fails here
            assertTrue(stalled.entered.await(5, TimeUnit.SECONDS), "the stalled client was written to");
        }

        assertTrue(reading.arrived.tryAcquire(3, 5, TimeUnit.SECONDS), "every event reached the client that reads: "
                + reading.sent);
        assertEquals(List.of("1", "2", "3"), reading.sent);
    }

    /** One user holds at most its share of streams (429), others still connect; the refusal is counted. */
    @Test
    void oneUserIsRefusedPastItsShareWhileAnotherIsAdmitted() {
        feed.executor = scheduledExecutorThatNeverRuns();
        feed.senders = senders;
        feed.maxPerUser = 2;
        var metrics = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        feed.metrics = metrics;
        feed.watch("alice", "o-1", 0, List.of(), false, new BlockingSink(null), sse());
        feed.watch("alice", "o-2", 0, List.of(), false, new BlockingSink(null), sse());
        OrderEventFeed.TooManyStreamsException refused = org.junit.jupiter.api.Assertions.assertThrows(
                OrderEventFeed.TooManyStreamsException.class,
                () -> feed.watch("alice", "o-3", 0, List.of(), false, new BlockingSink(null), sse()));
        assertTrue(refused.getMessage().contains("You hold 2 open event streams"), refused.getMessage());
        feed.watch("bob", "o-3", 0, List.of(), false, new BlockingSink(null), sse());
        feed.watch("alice", "o-4", 0, List.of(), true, new BlockingSink(null), sse()); // a resting order's stream ends at once
        assertEquals(1.0, metrics.counter(OrderEventFeed.REFUSED, "reason", "per-user").count());
    }

    private static HistoryView entry(int seq) {
        return new HistoryView(seq, T0, "reserve", "NotStarted", "Running", "scheduler", "n", "started");
    }

    private static EventSenders senders() {
        EventSenders senders = new EventSenders();
        senders.threads = (ManagedThreadFactory) Proxy.newProxyInstance(OrderEventFeedTest.class.getClassLoader(),
                new Class<?>[] {ManagedThreadFactory.class}, (proxy, method, args) -> new Thread((Runnable) args[0]));
        senders.size = 4;
        senders.start();
        return senders;
    }

    /** The test calls tick() itself. */
    private static ManagedScheduledExecutorService scheduledExecutorThatNeverRuns() {
        return (ManagedScheduledExecutorService) Proxy.newProxyInstance(OrderEventFeedTest.class.getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> {
                    if (method.getName().equals("scheduleWithFixedDelay")) {
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Events that carry their id (the seq) or their comment, built as the JAX-RS builder is called. */
    private static Sse sse() {
        return (Sse) Proxy.newProxyInstance(OrderEventFeedTest.class.getClassLoader(), new Class<?>[] {Sse.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("newEventBuilder")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    String[] id = {null};
                    return Proxy.newProxyInstance(OrderEventFeedTest.class.getClassLoader(),
                            new Class<?>[] {OutboundSseEvent.Builder.class}, (builder, call, values) -> switch (call.getName()) {
                                case "id", "comment" -> {
                                    id[0] = (String) values[0];
                                    yield builder;
                                }
                                case "build" -> BlockingSink.event(id[0]);
                                default -> builder;
                            });
                });
    }
}
