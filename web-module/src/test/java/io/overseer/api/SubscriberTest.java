package io.overseer.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.query.HistoryView;
import jakarta.ws.rs.sse.OutboundSseEvent;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that stops reading, as Jersey shows it: its sends block. The caller that hands events over (the
 * feed's ticker) never waits for it, other clients are served meanwhile, and past its bound it is closed.
 */
class SubscriberTest {

    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-23T12:00:00Z");

    private final ExecutorService senders = Executors.newFixedThreadPool(4);
    private final CountDownLatch unblock = new CountDownLatch(1);

    @AfterEach
    void release() {
        unblock.countDown();
        senders.shutdownNow();
    }

    @Test
    void aClientThatStopsReadingDelaysNobodyAndIsClosedPastItsBound() throws Exception {
        BlockingSink stalled = new BlockingSink(unblock);
        BlockingSink reading = new BlockingSink(null);
        Subscriber slow = new Subscriber("o-slow", 0, stalled, FORMAT, senders);
        Subscriber fast = new Subscriber("o-fast", 0, reading, FORMAT, senders);

        assertTrue(slow.offer(entries(1, 1)), "handed over at once; its send blocks on a sender thread");
        assertTrue(stalled.entered.await(5, TimeUnit.SECONDS));
        assertTrue(fast.offer(entries(1, 3)));
        fast.end();

        assertTrue(reading.closed.await(5, TimeUnit.SECONDS), "the other client's stream was sent and ended");
        assertEquals(List.of("1", "2", "3"), reading.sent);
        assertTrue(slow.offer(entries(2, Subscriber.MAX_UNSENT - 1)), "up to the bound, events wait for the client");
        assertFalse(slow.offer(entries(Subscriber.MAX_UNSENT + 1, 1)), "one more: the client reads no more");
        assertFalse(slow.isOpen());
        assertTrue(stalled.closed.await(5, TimeUnit.SECONDS), "its stream is closed though its send still blocks");
    }

    @Test
    void eventsGoOutInOrderAndTheStreamEndsAfterTheLast() throws Exception {
        BlockingSink reading = new BlockingSink(null);
        Subscriber subscriber = new Subscriber("o", 0, reading, FORMAT, senders);

        subscriber.hand(entries(1, 50));
        assertTrue(subscriber.offer(entries(51, 10)));
        subscriber.end();

        assertTrue(reading.closed.await(5, TimeUnit.SECONDS));
        assertEquals(IntStream.rangeClosed(1, 60).mapToObj(Integer::toString).toList(), reading.sent);
        assertEquals(60, subscriber.lastSeq());
    }

    @Test
    void aClientThatLeftIsDroppedOnTheNextOffer() throws Exception {
        BlockingSink gone = new BlockingSink(null);
        gone.fail = true;
        Subscriber subscriber = new Subscriber("o", 0, gone, FORMAT, senders);

        subscriber.hand(entries(1, 1));

        assertTrue(gone.closed.await(5, TimeUnit.SECONDS));
        assertFalse(subscriber.offer(entries(2, 1)));
    }

    private static List<HistoryView> entries(int firstSeq, int count) {
        return IntStream.range(firstSeq, firstSeq + count)
                .mapToObj(seq -> new HistoryView(seq, T0, "reserve", "NotStarted", "Running", "scheduler", "n", "started"))
                .toList();
    }

    /** Events that carry only their id (the seq), or the comment of a keep-alive. */
    private static final Subscriber.Format FORMAT = new Subscriber.Format() {
        @Override
        public OutboundSseEvent transition(HistoryView entry) {
            return BlockingSink.event(Integer.toString(entry.seq()));
        }

        @Override
        public OutboundSseEvent keepAlive() {
            return BlockingSink.event("keep-alive");
        }
    };
}
