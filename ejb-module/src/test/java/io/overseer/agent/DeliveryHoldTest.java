package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * An agent's delivery lets its session go once its attempts ended, or once its hold passed and workers took
 * them: a call that hangs does not keep a session for its whole complete-by, and a request no worker took stays
 * with its delivery (in the broker), not in the instance's memory.
 */
class DeliveryHoldTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final Instant LAST_DEADLINE = NOW.plusSeconds(30);

    @Test
    void aDeliveryWhoseAttemptsEndedReturnsWithoutWaitingForItsHold() throws Exception {
        AgentWorkers.Handed ended = new AgentWorkers.Handed(done(), done());
        // A clock standing still: the hold never passes, so only the ended attempt lets the delivery return.
        DeliveryHold.await(List.of(ended), NOW.plusSeconds(3600), LAST_DEADLINE.plusSeconds(3600), () -> NOW);
    }

    @Test
    void aDeliveryWhoseAttemptHangsReturnsOnceTheHoldPassedAndAWorkerTookIt() throws Exception {
        CompletableFuture<Object> hanging = new CompletableFuture<>();
        AgentWorkers.Handed attempt = new AgentWorkers.Handed(done(), hanging);
        // The hold is already over by the clock: the delivery waits for nothing but the worker's start.
        DeliveryHold.await(List.of(attempt), NOW.minusSeconds(1), LAST_DEADLINE, () -> NOW);
        assertFalse(hanging.isDone(), "the call goes on after its delivery returned");
    }

    @Test
    void aDeliveryWhoseAttemptNoWorkerTookYetWaitsForAWorker() throws Exception {
        CompletableFuture<Void> taken = new CompletableFuture<>();
        CountDownLatch waitedForAWorker = new CountDownLatch(1);
        AgentWorkers.Handed attempt = new AgentWorkers.Handed(new Watched(taken, waitedForAWorker),
                new CompletableFuture<>());
        CompletableFuture<Void> delivery = CompletableFuture.runAsync(() -> {
            try {
                DeliveryHold.await(List.of(attempt), NOW.minusSeconds(1), LAST_DEADLINE, () -> NOW);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(waitedForAWorker.await(30, TimeUnit.SECONDS), "the delivery waits for a worker to take the attempt");
        assertFalse(delivery.isDone(), "it has not returned while no worker took the attempt");
        taken.complete(null);
        delivery.get(30, TimeUnit.SECONDS);
    }

    private static <T> CompletableFuture<T> done() {
        return CompletableFuture.completedFuture(null);
    }

    /** A worker's start that says when the delivery began to wait for it. */
    private static final class Watched extends CompletableFuture<Void> {
        private final CompletableFuture<Void> taken;
        private final CountDownLatch waiting;

        Watched(CompletableFuture<Void> taken, CountDownLatch waiting) {
            this.taken = taken;
            this.waiting = waiting;
        }

        @Override
        public Void get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
            waiting.countDown();
            return taken.get(timeout, unit);
        }
    }
}
