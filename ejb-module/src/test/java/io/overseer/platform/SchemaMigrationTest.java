package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The migration at deployment waits out a database that is away, for a bound, and nothing else. */
class SchemaMigrationTest {

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger pauses = new AtomicInteger();
    private final Runnable pause = () -> {
        pauses.incrementAndGet();
        now.addAndGet(SchemaMigration.RETRY_EVERY.toNanos());
    };

    private static RuntimeException connectionClosed() {
        // What Flyway threw when a start met the primary's PostgreSQL killed: the pool's connection closed.
        return new IllegalStateException("Unable to obtain connection", new SQLException("This connection has been closed.", "08003"));
    }

    @Test
    void aDatabaseAwayForAWhileIsWaitedFor() {
        AtomicInteger tries = new AtomicInteger();
        String result = SchemaMigration.whileDatabaseAway(() -> {
            if (tries.incrementAndGet() < 3) {
                throw connectionClosed();
            }
            return "migrated";
        }, Duration.ofSeconds(60), now::get, pause);
        assertEquals("migrated", result);
        assertEquals(3, tries.get());
        assertEquals(2, pauses.get());
    }

    @Test
    void anyOtherFailureFailsTheDeploymentAtOnce() {
        RuntimeException broken = new IllegalStateException("Validate failed: migration checksum mismatch");
        RuntimeException thrown = assertThrows(RuntimeException.class,
                () -> SchemaMigration.whileDatabaseAway(() -> {
                    throw broken;
                }, Duration.ofSeconds(60), now::get, pause));
        assertSame(broken, thrown);
        assertEquals(0, pauses.get());
    }

    @Test
    void aDatabaseAwayLongerThanTheWaitFailsTheDeploymentThen() {
        AtomicInteger tries = new AtomicInteger();
        assertThrows(IllegalStateException.class, () -> SchemaMigration.whileDatabaseAway(() -> {
            tries.incrementAndGet();
            throw connectionClosed();
        }, Duration.ofSeconds(5), now::get, pause));
        assertEquals(6, tries.get(), "tries at 0, 1, … 5 s");
        assertEquals(5, pauses.get());
    }
}
