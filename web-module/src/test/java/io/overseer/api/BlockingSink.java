package io.overseer.api;

import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.SseEventSink;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

/**
 * An event stream's sink for the feed's unit tests: its sends block until released (when given a latch),
 * as Jersey's do for a client that stops reading; it records what was sent, and can fail every send as a
 * connection reset would.
 */
final class BlockingSink implements SseEventSink {
    final List<String> sent = new CopyOnWriteArrayList<>();
    /** Released once per event sent. */
    final Semaphore arrived = new Semaphore(0);
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch closed = new CountDownLatch(1);
    private final CountDownLatch block;
    volatile boolean fail;

    BlockingSink(CountDownLatch block) {
        this.block = block;
    }

    /** An event that has only an id (the tests' events are told apart by it). */
    static OutboundSseEvent event(String id) {
        return (OutboundSseEvent) Proxy.newProxyInstance(BlockingSink.class.getClassLoader(),
                new Class<?>[] {OutboundSseEvent.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getId", "toString" -> id;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Override
    public boolean isClosed() {
        return closed.getCount() == 0;
    }

    @Override
    public CompletionStage<?> send(OutboundSseEvent event) {
        entered.countDown();
        if (fail) {
            return CompletableFuture.failedFuture(new IOException("connection reset"));
        }
        if (block != null) {
            try {
                block.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sent.add(event.getId());
        arrived.release();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void close() {
        closed.countDown();
    }
}
