package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.junit.jupiter.api.Test;

class RemoteServiceCircuitTest {

    @Test
    void onlyTransientOutcomesAreRaisedSoOnlyTheyCountAsCircuitFailures() throws Exception {
        CallResult ok = CallResult.ofStatus(200, "{}");
        CallResult refused = CallResult.ofStatus(422, "no");
        assertSame(ok, RemoteServiceCircuit.raiseTransient(ok));
        assertSame(refused, RemoteServiceCircuit.raiseTransient(refused));
        CallResult unavailable = CallResult.ofStatus(503, "busy");
        TransientCallException e = assertThrows(TransientCallException.class,
                () -> RemoteServiceCircuit.raiseTransient(unavailable));
        assertSame(unavailable, e.result());
    }

    @Test
    void aTransientExceptionMapsBackToItsResult() {
        CallResult unavailable = CallResult.transientFault("ConnectException: refused");
        CallResult mapped = RemoteServiceCircuit.guarded(() -> {
            throw new TransientCallException(unavailable);
        });
        assertSame(unavailable, mapped);
        assertTrue(!mapped.isCircuitOpen());
    }

    @Test
    void anOpenCircuitIsATransientFaultMarkedAsSuch() {
        CallResult mapped = RemoteServiceCircuit.guarded(() -> {
            throw new CircuitBreakerOpenException("open");
        });
        assertEquals(CallResult.Kind.TRANSIENT, mapped.kind());
        assertTrue(mapped.isCircuitOpen());
        assertTrue(!CallResult.ofStatus(503, "").isCircuitOpen());
    }

    @Test
    void returnedResultsPassThrough() {
        CallResult refused = CallResult.ofStatus(422, "no");
        assertSame(refused, RemoteServiceCircuit.guarded(() -> refused));
    }
}
