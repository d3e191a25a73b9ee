package io.overseer.agent;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How long an agent's delivery keeps its message unacknowledged (and its MDB session taken) while its
 * attempts run. Held, a batch whose instance dies mid-call is given by the broker to another instance at once.
 * But only for {@code overseer.agent.delivery-hold}: a delivery returns once every attempt of its batch
 * ended, or once the hold passed and a worker has taken every attempt. Held for a call's whole complete-by,
 * twenty calls to a service that never answers took all 16 sessions of an instance, and every other
 * operation's requests waited in the queue for them (RELIABILITY.md): the workers, not the sessions, are the
 * bound on calls at once. An attempt still running when its delivery returns is covered as a lost request is:
 * if its instance dies, the attempt expires at its complete-by and the supervisor retries it.
 *
 * <p>While every worker is busy, an attempt is not taken and its delivery waits, up to the batch's last
 * deadline: requests stay in the broker, where another instance can take them, rather than in this one's
 * memory, where a crash would lose them until their complete-by.
 */
final class DeliveryHold {

    private static final Logger LOG = Logger.getLogger(DeliveryHold.class.getName());

    private DeliveryHold() {
    }

    /**
     * Returns when each attempt has ended, or has been taken by a worker once {@code holdUntil} passed; never
     * later than {@code lastDeadline}.
     */
    static void await(List<AgentWorkers.Handed> attempts, Instant holdUntil, Instant lastDeadline, Supplier<Instant> now)
            throws InterruptedException {
        Instant hold = holdUntil.isBefore(lastDeadline) ? holdUntil : lastDeadline;
        for (AgentWorkers.Handed attempt : attempts) {
            if (!ended(attempt.ended(), millisUntil(hold, now))) {
                taken(attempt.taken(), millisUntil(lastDeadline, now));
            }
        }
    }

    private static boolean ended(Future<?> ended, long millis) throws InterruptedException {
        try {
            ended.get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            LOG.log(Level.WARNING, "An agent attempt failed unexpectedly; it expires and is retried", e.getCause());
        } catch (TimeoutException e) {
            return false;
        }
        return true;
    }

    private static void taken(Future<Void> taken, long millis) throws InterruptedException {
        try {
            taken.get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a worker's start cannot fail", e);
        } catch (TimeoutException e) {
            LOG.log(Level.WARNING, "No agent worker took an attempt before its complete-by; leaving it to its deadline");
        }
    }

    private static long millisUntil(Instant until, Supplier<Instant> now) {
        return Math.max(1, Duration.between(now.get(), until).toMillis());
    }
}
