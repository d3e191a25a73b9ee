package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What an instance that cannot reach its database does with its deliveries: once a connection failed, every
 * consumer hands its delivery back at once, except one every RETRY that finds out whether the database is
 * back; the first success ends it. Only a database that cannot be reached counts, not one that answers with
 * a deadlock.
 */
class DatabaseReachabilityTest {

    @Test
    void afterAFailedConnectionOnlyOneCallerAtATimeTriesUntilOneSucceeds() {
        AtomicLong ticker = new AtomicLong(-5_000_000_000L); // nanoTime may be negative: the arithmetic must not care
        DatabaseReachability database = new DatabaseReachability(ticker::get);
        assertTrue(database.mayTry(), "not known to be away");
        assertTrue(database.mayTry(), "every caller, as long as nothing failed");

        database.lost();
        assertTrue(database.isLost());
        assertFalse(database.mayTry(), "away: hand the delivery back");
        ticker.addAndGet(DatabaseReachability.RETRY.toNanos() - 1);
        assertFalse(database.mayTry(), "not before RETRY");
        ticker.incrementAndGet();
        assertTrue(database.mayTry(), "after RETRY one caller finds out");
        assertFalse(database.mayTry(), "... and only one");
        ticker.addAndGet(DatabaseReachability.RETRY.toNanos() - 1);
        assertFalse(database.mayTry(), "the next one RETRY after that try, not after the failure");
        ticker.incrementAndGet();
        assertTrue(database.mayTry());
        assertFalse(database.mayTry());

        database.reached();
        assertFalse(database.isLost());
        assertTrue(database.mayTry());
        assertTrue(database.mayTry());
    }

    @Test
    void unreachableMeansNoConnectionNotADatabaseThatAnswers() {
        assertTrue(Outage.isUnreachable(new RuntimeException(new SQLException("connection attempt failed", "08001"))));
        assertTrue(Outage.isUnreachable(new RuntimeException(new ConnectException("refused"))));
        assertTrue(Outage.isUnreachable(new IllegalStateException(new ResourceException("pool could not allocate"))));
        assertFalse(Outage.isUnreachable(new RuntimeException(new SQLTransactionRollbackException("deadlock", "40P01"))),
                "a deadlock is an outage (delivered again) but the database answered");
        assertTrue(Outage.isOutage(new SQLTransactionRollbackException("deadlock", "40P01")));
        assertFalse(Outage.isUnreachable(new IllegalArgumentException("a bug")));
    }
}
