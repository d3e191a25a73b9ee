package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import io.overseer.platform.Clocks;
import io.overseer.platform.ShutdownGate;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The attempt loop with the circuit, fence and metrics replaced by fakes. */
class AttemptRunnerTest {

    private final List<String> events = new ArrayList<>();
    private final Deque<Object> outcomes = new ArrayDeque<>();
    private static final Object OPEN = new Object();
    private boolean current = true;
    private boolean closing;
    private AttemptRunner runner;

    @BeforeEach
    void wire() {
        runner = new AttemptRunner();
        runner.clocks = new Clocks();
        runner.tracing = io.overseer.platform.Tracing.off();
        runner.settings = new AgentSettings();
        runner.settings.backoffInitial = Duration.ofMillis(1);
        runner.settings.backoffCap = Duration.ofMillis(2);
        runner.fence = new AttemptFence() {
            @Override
            public boolean isCurrent(AttemptRequest request) {
                return current;
            }
        };
        runner.services = new RemoteServices() {
            @Override
            public ServiceCircuit route(String operation) {
                Object next = outcomes.isEmpty() ? CallResult.success("{}") : outcomes.poll();
                ServiceCircuit circuit = new ServiceCircuit(service((CallResult) (next == OPEN ? null : next)),
                        new HttpServiceConfig(key -> Optional.empty()).circuit("test"));
                if (next == OPEN) {
                    circuit.breaker().transitionToForcedOpenState();
                }
                return circuit;
            }
        };
        runner.pacer = new CallPacer() {
            @Override
            public boolean paces(String operation) {
                return paced;
            }

            @Override
            public java.time.OffsetDateTime tryStart(String operation) {
                starts.add(operation);
                return pacedUntil.isEmpty() ? null : pacedUntil.poll();
            }
        };
        runner.gate = new ShutdownGate() {
            @Override
            public synchronized boolean enter() {
                return !closing && super.enter();
            }
        };
        runner.metrics = new AgentMetrics() {
            @Override
            public void called(String operation, Duration latency) {
                events.add("call " + operation);
            }

            @Override
            public void retried(String operation) {
                events.add("retry " + operation);
            }

            @Override
            public void failed(String operation, FailureKind kind) {
                events.add(kind.tag() + " " + operation);
            }
        };
    }

    private static RemoteService service(CallResult result) {
        return new RemoteService() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public boolean performs(String operation) {
                return true;
            }

            @Override
            public CallResult call(AgentRequest request, Duration timeout) {
                return result;
            }
        };
    }

    private static AttemptRequest request(Duration left) {
        return new AttemptRequest("o-1", 1, 0, "t0ken", "charge-payment", "o-1:charge-payment",
                OffsetDateTime.now(ZoneOffset.UTC).plus(left), "c-1", List.of(), null, java.util.Map.of(), null);
    }

    /** Per-second flow limit: a limited operation's call waits for a start, each retry takes one too. */
    private volatile boolean paced;
    private final java.util.Queue<java.time.OffsetDateTime> pacedUntil = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final List<String> starts = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Test
    void aPacedCallWaitsForItsStartAndEachRetryTakesOne() {
        paced = true;
        pacedUntil.add(runner.clocks.now().plusNanos(20_000_000)); // the second is full: try again in 20 ms
        outcomes.add(CallResult.transientFault("HTTP 503: busy"));

        Optional<AgentReply> reply = runner.run(request(Duration.ofSeconds(10)));

        assertTrue(reply.isPresent());
        assertEquals(List.of("charge-payment", "charge-payment", "charge-payment"), starts,
                "asked twice for the first call (full, then admitted), once for the retry");
        assertEquals(List.of("call charge-payment", "transient charge-payment", "retry charge-payment",
                "call charge-payment"), events);
    }

    @Test
    void aCallThatCannotStartBeforeItsCompleteByIsAbandonedWithoutACall() {
        paced = true;
        pacedUntil.add(runner.clocks.now().plusSeconds(60));

        Optional<AgentReply> reply = runner.run(request(Duration.ofSeconds(1)));

        assertTrue(reply.isEmpty(), "abandoned silently: the supervisor retries it");
        assertTrue(events.stream().noneMatch(event -> event.startsWith("call")), events.toString());
    }

    @Test
    void transientFaultsAndAnOpenCircuitAreRetriedUntilSuccessAndCounted() {
        outcomes.add(CallResult.transientFault("HTTP 503: busy"));
        outcomes.add(OPEN);

        Optional<AgentReply> reply = runner.run(request(Duration.ofSeconds(10)));

        assertTrue(reply.isPresent());
        assertEquals(List.of("call charge-payment", "transient charge-payment",
                "retry charge-payment", "circuit-open charge-payment",
                "retry charge-payment", "call charge-payment"), events);
    }

    @Test
    void aRefusalIsReportedAtOnceAndCountedAsNontransient() {
        outcomes.add(CallResult.refused("HTTP 422: declined"));

        Optional<AgentReply> reply = runner.run(request(Duration.ofSeconds(10)));

        assertTrue(reply.isPresent());
        assertEquals(List.of("call charge-payment", "nontransient charge-payment"), events);
    }

    @Test
    void aPassedDeadlineAbandonsSilently() {
        Optional<AgentReply> reply = runner.run(request(Duration.ofMillis(-1)));

        assertTrue(reply.isEmpty());
        assertEquals(List.of("deadline-abandoned charge-payment"), events);
    }

    @Test
    void anAttemptNoLongerCurrentIsFencedWithoutACall() {
        current = false;

        Optional<AgentReply> reply = runner.run(request(Duration.ofSeconds(10)));

        assertTrue(reply.isEmpty());
        assertEquals(List.of("fenced charge-payment"), events);
    }

    @Test
    void anInstanceShuttingDownHandsTheAttemptBackWithoutACall() {
        closing = true;

        Optional<AgentReply> reply = runner.run(request(Duration.ofSeconds(10)));

        assertEquals(AgentReply.Outcome.HANDED_BACK, reply.orElseThrow().outcome());
        assertEquals(List.of("handed-back charge-payment"), events);
    }

    @Test
    void aRetryDueWhileShuttingDownIsHandedBackInsteadOfCalled() {
        outcomes.add(CallResult.transientFault("HTTP 503"));
        runner.metrics = new AgentMetrics() {
            @Override
            public void called(String operation, Duration latency) {
                events.add("call " + operation);
                closing = true;
            }

            @Override
            public void failed(String operation, FailureKind kind) {
                events.add(kind.tag() + " " + operation);
            }
        };

        Optional<AgentReply> reply = runner.run(request(Duration.ofSeconds(10)));

        assertEquals(AgentReply.Outcome.HANDED_BACK, reply.orElseThrow().outcome());
        assertEquals(List.of("call charge-payment", "transient charge-payment", "handed-back charge-payment"), events);
    }
}
