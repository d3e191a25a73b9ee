package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A connection the pool closed under us is the database gone, not a bug; any other NPE is a bug. */
class OutageTest {

    private static NullPointerException thrownIn(String className) {
        NullPointerException npe = new NullPointerException(
                "Cannot invoke \"java.sql.Connection.prepareStatement(String)\" because \"this.actualConnection\" is null");
        npe.setStackTrace(new StackTraceElement[] {
            new StackTraceElement(className, "executeInitSql", "ManagedConnectionImpl.java", 255),
            new StackTraceElement("com.sun.enterprise.resource.pool.ConnectionPool", "getResource", "ConnectionPool.java", 483)});
        return npe;
    }

    @Test
    void aConnectionThePoolClosedWhileHandingItOutIsAnOutage() {
        // As Payara reported it: an EJBException "Transaction aborted", its RollbackException, the pool's NPE.
        RuntimeException failure = new IllegalStateException("Transaction aborted",
                new IllegalStateException("Transaction marked for rollback.", thrownIn("com.sun.gjc.spi.ManagedConnectionImpl")));
        assertTrue(Outage.isOutage(failure));
        assertTrue(Outage.isUnreachable(failure));
    }

    @Test
    void aNullPointerExceptionAnywhereElseIsABug() {
        RuntimeException failure = new IllegalStateException("Transaction aborted", thrownIn("io.overseer.submission.OrderSubmission"));
        assertFalse(Outage.isOutage(failure));
        assertFalse(Outage.isUnreachable(failure));
    }
}
