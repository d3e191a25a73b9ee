package io.overseer.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.Outage;
import jakarta.ejb.EJBException;
import jakarta.persistence.PersistenceException;
import jakarta.resource.ResourceException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RedeliveryTest {

    /** What EclipseLink and the EJB container make of a statement the database could not run. */
    private static RuntimeException wrapped(Throwable cause) {
        return new EJBException(new PersistenceException("Exception [EclipseLink-4002]", cause));
    }

    @Test
    void anOutageIsDeliveredAgainHoweverOftenItFailed() {
        for (Throwable outage : new Throwable[] {
                new SQLException("terminating connection due to administrator command", "57P01"),
                new SQLException("Connection refused", "08001"),
                new SQLException("too many connections", "53300"),
                new SQLException("deadlock detected", "40P01"),
                new ResourceException("Error in allocating a connection"),
                new ConnectException("Connection refused"),
                new jakarta.transaction.SystemException("commit failed"),
                new javax.transaction.xa.XAException("jakarta.resource.ResourceException: This Managed Connection is"
                        + " not valid as the physical connection is not usable")}) {
            assertEquals(Optional.empty(), Redelivery.deadLetterReason(100, wrapped(outage)), outage.toString());
            assertTrue(Outage.isOutage(wrapped(outage)), outage.toString());
        }
    }

    @Test
    void anOutageReportedAsTheNextExceptionOfABatchIsSeen() {
        SQLException batch = new SQLException("Batch entry 0 INSERT … was aborted", "42000");
        batch.setNextException(new SQLException("An I/O error occurred", "08006"));
        assertTrue(Outage.isOutage(wrapped(batch)));
    }

    @Test
    void anyOtherFailureIsDeliveredAgainUntilItsFifthDelivery() {
        RuntimeException bug = wrapped(new SQLException("value too long for type character varying(1000)", "22001"));
        assertFalse(Outage.isOutage(bug));
        for (int delivery = 1; delivery < Redelivery.MAX_DELIVERIES; delivery++) {
            assertEquals(Optional.empty(), Redelivery.deadLetterReason(delivery, bug), "delivery " + delivery);
        }
        assertEquals(Optional.of("failed on 5 deliveries: java.sql.SQLException: value too long for type"
                + " character varying(1000)"), Redelivery.deadLetterReason(Redelivery.MAX_DELIVERIES, bug));
    }

    @Test
    void theReasonIsBounded() {
        String reason = Redelivery.deadLetterReason(9, new IllegalStateException("x".repeat(5000))).orElseThrow();
        assertTrue(reason.length() < 600, reason.length() + " characters");
    }

    @Test
    void aCauseChainThatLoopsEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertFalse(Outage.isOutage(a));
        assertTrue(Redelivery.deadLetterReason(5, a).isPresent());
    }
}
