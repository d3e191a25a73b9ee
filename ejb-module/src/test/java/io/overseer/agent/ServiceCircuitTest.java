package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The circuit's policy with a scripted service: only transient faults open it, an open circuit does not call. */
class ServiceCircuitTest {

    private static final Object NO_RESULT = new Object();
    private final Deque<Object> script = new ArrayDeque<>();
    private final AtomicInteger calls = new AtomicInteger();
    private final RemoteService service = new RemoteService() {
        @Override
        public String name() {
            return "svc";
        }

        @Override
        public boolean performs(String operation) {
            return true;
        }

        @Override
        public CallResult call(AgentRequest request, Duration timeout) {
            calls.incrementAndGet();
            Object next = script.poll();
            if (next instanceof RuntimeException e) {
                throw e;
            }
            return next == NO_RESULT ? null : (CallResult) next;
        }
    };
    /** The circuit's clock, moved by the test. */
    private Instant now = Instant.parse("2026-11-29T08:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    };
    private final ServiceCircuit circuit = new ServiceCircuit(service,
            new HttpServiceConfig.CircuitSettings(true, 4, 4, 0.5, Duration.ofMillis(200), 1), clock);
    private final AttemptRequest request = new AttemptRequest("o", 1, 0, "t0ken", "op", "o:op", OffsetDateTime.now(), "c", List.of(), null, java.util.Map.of(), null);

    @Test
    void transientFaultsOpenItAndATrialCallAfterTheDelayClosesIt() {
        script.add(CallResult.transientFault("HTTP 503"));
        script.add(new IllegalStateException("boom"));
        script.add(CallResult.success("{}"));
        script.add(NO_RESULT);
        for (int i = 0; i < 4; i++) {
            circuit.call(request, Duration.ofSeconds(1));
        }
        assertEquals(CircuitBreaker.State.OPEN, circuit.breaker().getState(), "3 of 4 calls were transient faults");

        CallResult refused = circuit.call(request, Duration.ofSeconds(1));
        assertTrue(CallResults.isCircuitOpen(refused));
        assertEquals(4, calls.get(), "an open circuit does not call the service");

        now = now.plusMillis(199);
        assertTrue(CallResults.isCircuitOpen(circuit.call(request, Duration.ofSeconds(1))), "still open before openFor");
        assertEquals(4, calls.get());

        now = now.plusMillis(2);
        script.add(CallResult.success("{}"));
        assertEquals(CallResult.Kind.SUCCESS, circuit.call(request, Duration.ofSeconds(1)).kind(), "the trial call");
        assertEquals(5, calls.get());
        assertEquals(CircuitBreaker.State.CLOSED, circuit.breaker().getState());
    }

    @Test
    void refusalsAreHealthyAnswers() {
        for (int i = 0; i < 8; i++) {
            script.add(CallResult.refused("HTTP 422"));
            assertEquals(CallResult.Kind.NONTRANSIENT, circuit.call(request, Duration.ofSeconds(1)).kind());
        }
        assertEquals(CircuitBreaker.State.CLOSED, circuit.breaker().getState());
    }
}
