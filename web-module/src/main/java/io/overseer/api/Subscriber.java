package io.overseer.api;

import io.overseer.platform.Json;
import io.overseer.query.HistoryView;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One client's event stream and the events handed to it that it has not been sent yet. The feed's ticker
 * only hands events over; they are written on a sender thread ({@link EventSenders}), one send under way
 * per client at a time. So a client that stops reading holds up its own stream only: on Jersey (Payara) a
 * send blocks its thread while the connection takes no more, up to the container's write timeout, and
 * every other client is served meanwhile. With {@value #MAX_UNSENT} events handed over and not sent, the
 * client is taken to have stopped reading and its stream is closed at the next hand-over: it may reconnect
 * with Last-Event-ID and miss nothing, and what waits for it in memory stays bounded.
 */
final class Subscriber {

    private static final Logger LOG = Logger.getLogger(Subscriber.class.getName());
    /** Events handed over and not sent beyond which the client's stream is closed (an order's life is ~10-40). */
    static final int MAX_UNSENT = 100;
    /** How long a sender waits for a send that an implementation completes asynchronously (Jersey does not). */
    private static final long SEND_TIMEOUT_SECONDS = 30;

    /** How events look on the wire. */
    interface Format {
        OutboundSseEvent transition(HistoryView entry);

        OutboundSseEvent keepAlive();

        /** {@code event: transition}, {@code id:} the history seq, {@code data:} the entry as JSON. */
        static Format of(Sse sse) {
            return new Format() {
                @Override
                public OutboundSseEvent transition(HistoryView entry) {
                    return sse.newEventBuilder().id(Integer.toString(entry.seq())).name("transition")
                            .data(Json.write(entry)).build();
                }

                @Override
                public OutboundSseEvent keepAlive() {
                    return sse.newEventBuilder().comment("keep-alive").build();
                }
            };
        }
    }

    private final String orderId;
    private final SseEventSink sink;
    private final Format format;
    private final Executor senders;
    private final Queue<OutboundSseEvent> queue = new ConcurrentLinkedQueue<>();
    /** Handed over and not yet sent: what is queued plus the send under way. */
    private final AtomicInteger unsent = new AtomicInteger();
    private final AtomicBoolean sending = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The stream ends once everything handed over is sent. */
    private volatile boolean ending;
    /** The client left, or fell too far behind: nothing more is sent. */
    private volatile boolean gone;
    private volatile int lastSeq;
    private volatile long lastHandedNanos = System.nanoTime();

    Subscriber(String orderId, int lastSeq, SseEventSink sink, Format format, Executor senders) {
        this.orderId = orderId;
        this.lastSeq = lastSeq;
        this.sink = sink;
        this.format = format;
        this.senders = senders;
    }

    String orderId() {
        return orderId;
    }

    /** The seq of the last entry handed over (sent, or on its way). */
    int lastSeq() {
        return lastSeq;
    }

    boolean isOpen() {
        return !gone && !sink.isClosed();
    }

    /** Hands over entries the client asked for (its backlog): however many there are. */
    void hand(List<HistoryView> entries) {
        entries.forEach(entry -> enqueue(format.transition(entry), entry.seq()));
        pump();
    }

    /**
     * Hands over new entries; false if the stream is closed — the client left, or {@value #MAX_UNSENT}
     * events handed over before still wait for it (one burst, however large, is taken).
     */
    boolean offer(List<HistoryView> entries) {
        if (!isOpen()) {
            return false;
        }
        if (unsent.get() >= MAX_UNSENT) {
            LOG.log(Level.INFO, "Event stream of order {0}: the client reads no more ({1} events unsent); closed",
                    new Object[] {orderId, unsent.get()});
            leave();
            return false;
        }
        hand(entries);
        return true;
    }

    /**
     * Hands over a keep-alive comment if nothing was for {@code idleSeconds} and nothing is on its way (which
     * would serve as well); false if the stream is closed.
     */
    boolean keepAlive(long idleSeconds) {
        if (!isOpen()) {
            return false;
        }
        if (unsent.get() == 0 && System.nanoTime() - lastHandedNanos >= TimeUnit.SECONDS.toNanos(idleSeconds)) {
            enqueue(format.keepAlive(), lastSeq);
            pump();
        }
        return true;
    }

    /** Ends the stream once everything handed over has been sent. */
    void end() {
        ending = true;
        pump();
    }

    /** Sends nothing more and closes the stream (off the caller's thread: a close may have to flush). */
    void leave() {
        gone = true;
        queue.clear();
        try {
            senders.execute(this::close);
        } catch (RuntimeException e) {
            close();   // refused: the application is stopping
        }
    }

    private void enqueue(OutboundSseEvent event, int seq) {
        unsent.incrementAndGet();
        queue.add(event);
        lastSeq = seq;
        lastHandedNanos = System.nanoTime();
    }

    /** Starts a sender for this client unless one is at work (it takes what was just queued). */
    private void pump() {
        if (!sending.compareAndSet(false, true)) {
            return;
        }
        try {
            senders.execute(this::sendQueued);
        } catch (RuntimeException e) {
            sending.set(false);   // refused: the application is stopping
            leave();
        }
    }

    private void sendQueued() {
        try {
            for (OutboundSseEvent event; !gone && (event = queue.poll()) != null; ) {
                if (!send(event)) {
                    leave();
                    return;
                }
                unsent.decrementAndGet();
            }
            if (ending && !gone) {
                close();
            }
        } finally {
            sending.set(false);
        }
        // Something handed over after the loop found the queue empty, before 'sending' was cleared.
        if (!gone && !closed.get() && (!queue.isEmpty() || ending)) {
            pump();
        }
    }

    private boolean send(OutboundSseEvent event) {
        try {
            sink.send(event).toCompletableFuture().get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            LOG.log(Level.FINE, "Event stream of order {0} closed by the client", orderId);
            return false;
        }
    }

    private void close() {
        if (closed.compareAndSet(false, true)) {
            sink.close();
        }
    }
}
