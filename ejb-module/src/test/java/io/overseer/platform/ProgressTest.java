package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {

    private static final Duration BOUND = Duration.ofMinutes(2);

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Progress progress = new Progress(now::get);

    @Test
    void aWorkerThatKeepsBeatingIsNeverStuck() {
        Heartbeat lane = progress.watch("courier-0");
        for (int i = 0; i < 100; i++) {
            pass(Duration.ofSeconds(30));
            lane.beat();
        }

        assertTrue(progress.stuck(BOUND).isEmpty());
    }

    @Test
    void aWorkerSilentPastTheBoundIsStuckAndNamed() {
        progress.watch("courier-0").beat();
        progress.watch("supervisor").beat();

        pass(BOUND);
        assertTrue(progress.stuck(BOUND).isEmpty(), "exactly the bound is still within it");

        pass(Duration.ofMillis(1));
        assertEquals(Set.of(new Progress.Stuck("courier-0", BOUND.plusMillis(1)),
                new Progress.Stuck("supervisor", BOUND.plusMillis(1))), Set.copyOf(progress.stuck(BOUND)));
    }

    @Test
    void aBeatAfterBeingStuckClearsIt() {
        Heartbeat supervisor = progress.watch("supervisor");
        pass(BOUND.multipliedBy(3));
        assertEquals(1, progress.stuck(BOUND).size());

        supervisor.beat();

        assertTrue(progress.stuck(BOUND).isEmpty());
    }

    @Test
    void waitingOnTheBrokerIsNotBeingStuckHoweverLong() {
        Heartbeat lane = progress.watch("courier-0");
        lane.waitingOnBroker();

        pass(Duration.ofHours(1));
        assertTrue(progress.stuck(BOUND).isEmpty(), "a broker outage is for readiness to report");

        lane.beat(); // the send returned: the lane is its own master again
        pass(BOUND.plusSeconds(1));
        assertEquals(List.of(new Progress.Stuck("courier-0", BOUND.plusSeconds(1))), progress.stuck(BOUND));
    }

    @Test
    void anAttemptMayRunUntilItsAllowanceBeforeTheBoundStarts() {
        Heartbeat attempt = progress.watch("agent o-1 charge-payment", Duration.ofMinutes(10));

        pass(Duration.ofMinutes(10).plus(BOUND));
        assertTrue(progress.stuck(BOUND).isEmpty(), "running up to its complete-by, then within the bound");

        pass(Duration.ofSeconds(5));
        assertEquals(List.of(new Progress.Stuck("agent o-1 charge-payment", BOUND.plusSeconds(5))),
                progress.stuck(BOUND));

        progress.forget(attempt); // the attempt ended, however late
        assertTrue(progress.stuck(BOUND).isEmpty());
        assertEquals(0, progress.watched());
    }

    @Test
    void theLongestSilentComesFirst() {
        progress.watch("courier-1");
        pass(Duration.ofMinutes(1));
        progress.watch("courier-0");
        pass(Duration.ofMinutes(5));

        assertEquals(List.of("courier-1", "courier-0"),
                progress.stuck(BOUND).stream().map(Progress.Stuck::worker).toList());
    }

    private void pass(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
