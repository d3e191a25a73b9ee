package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A timer's tick: skipped while the last one runs, a failure logged and not thrown, beats around a tick that runs. */
class OneAtATimeTest {

    private static final Logger LOG = Logger.getLogger(OneAtATimeTest.class.getName());
    private static final String FAILURE = "Test tick failed; the next one tries again";

    @RegisterExtension
    final CapturedLog log = new CapturedLog(LOG);
    private final AtomicLong ticker = new AtomicLong();
    private final Heartbeat heartbeat = new Progress(ticker::get).watch("test timer");
    private final OneAtATime ticks = new OneAtATime(LOG, FAILURE, heartbeat);

    @Test
    void aTickThatFindsTheLastOneRunningIsSkippedWithoutABeat() {
        List<Boolean> inner = new ArrayList<>();
        ticker.set(100);

        boolean ran = ticks.run(() -> {
            ticker.set(150);
            inner.add(ticks.run(() -> inner.add(null)));
            assertEquals(50, heartbeat.overdue(150, 0), "the skipped tick did not beat: the last beat is the outer's");
        });

        assertTrue(ran);
        assertEquals(List.of(false), inner, "the inner tick was skipped, its work not done");
        assertEquals(0, heartbeat.overdue(150, 0), "the tick that ran beat as it ended");
        assertTrue(ticks.run(() -> { }), "once the last tick ended, the next one runs");
    }

    @Test
    void aFailedTickIsLoggedAndAnswersTheFallbackAndTheNextOneRuns() {
        IllegalStateException failure = new IllegalStateException("database away");

        assertEquals(-1, (int) ticks.call(() -> {
            throw failure;
        }, -1));

        assertEquals(1, log.records().size());
        assertEquals(Level.WARNING, log.records().get(0).getLevel());
        assertEquals(FAILURE, log.records().get(0).getMessage());
        assertSame(failure, log.records().get(0).getThrown());
        assertEquals(7, (int) ticks.call(() -> 7, -1));
        assertFalse(new OneAtATime(LOG, FAILURE).run(() -> {
            throw failure;
        }), "a failed tick is not one that ran");
    }
}
