package io.overseer.agent;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.internal.CircuitBreakerStateMachine;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A remote service behind its own circuit breaker (Resilience4j, count-based window). Over the last
 * {@code window} calls (once {@code minimumCalls} were made), a {@code failureRatio} of transient
 * faults opens the circuit; while open, calls fail fast as transient faults without touching the
 * service, so the agent's backoff and then the supervisor's take over; after {@code openFor} the next
 * calls are let through as trials ({@code halfOpenCalls}), which close it again or reopen it. Only
 * transient faults count against the service: a refusal is a healthy answer.
 *
 * <p>Resilience4j rather than MicroProfile Fault Tolerance because MP FT keys circuits by Java method,
 * so every service would share one circuit — one failing service would stop calls to all of them.
 * The open-to-half-open move happens on the first call after {@code openFor} (no timer thread of its
 * own, which a Jakarta EE container would not manage). That delay is read on the system clock, as
 * {@link CircuitBreaker#of} reads it; the state machine is built directly because {@code of} takes no
 * clock, and tests pass their own.
 */
public final class ServiceCircuit {

    private static final Logger LOG = Logger.getLogger(ServiceCircuit.class.getName());

    private final RemoteService service;
    private final CircuitBreaker breaker;

    ServiceCircuit(RemoteService service, HttpServiceConfig.CircuitSettings settings) {
        this(service, settings, Clock.systemUTC());
    }

    ServiceCircuit(RemoteService service, HttpServiceConfig.CircuitSettings settings, Clock clock) {
        this.service = service;
        this.breaker = new CircuitBreakerStateMachine(service.name(), CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(settings.window())
                .minimumNumberOfCalls(settings.minimumCalls())
                .failureRateThreshold((float) (settings.failureRatio() * 100))
                .waitDurationInOpenState(settings.openFor())
                .permittedNumberOfCallsInHalfOpenState(settings.halfOpenCalls())
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .writableStackTraceEnabled(false)
                .build(), clock);
        if (!settings.enabled()) {
            breaker.transitionToDisabledState();
        }
        breaker.getEventPublisher().onStateTransition(event -> LOG.log(Level.WARNING,
                "Circuit of remote service {0}: {1}", new Object[] {service.name(), event.getStateTransition()}));
    }

    RemoteService service() {
        return service;
    }

    String name() {
        return service.name();
    }

    /** A call's span name: the HTTP method and the operation for a configured HTTP service, else the service's. */
    String callName(String operation) {
        return service instanceof HttpRemoteService ? "POST " + operation : "call " + service.name();
    }

    /** A configured HTTP service's call is a client span (the service receives its traceparent). */
    io.opentelemetry.api.trace.SpanKind spanKind() {
        return service instanceof HttpRemoteService ? io.opentelemetry.api.trace.SpanKind.CLIENT
                : io.opentelemetry.api.trace.SpanKind.INTERNAL;
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    /** One call through the circuit; an open circuit, an exception or no answer are transient faults. */
    CallResult call(AttemptRequest request, Duration timeout) {
        if (!breaker.tryAcquirePermission()) {
            return CallResults.circuitOpen();
        }
        long started = System.nanoTime();
        CallResult result = null;
        try {
            result = service.call(request, timeout);
            if (result == null) {
                result = CallResult.transientFault(service.name() + " returned no result");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Remote service " + service.name() + " threw on " + request.operation(), e);
            result = CallResult.transientFault(e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            long took = System.nanoTime() - started;
            if (result == null) {
                breaker.releasePermission();   // an Error is on its way up: the call did not finish
            } else if (result.kind() == CallResult.Kind.TRANSIENT) {
                breaker.onError(took, TimeUnit.NANOSECONDS, new TransientFault(result.detail()));
            } else {
                breaker.onSuccess(took, TimeUnit.NANOSECONDS);
            }
        }
        return result;
    }

    /** What the circuit records for a transient fault; never thrown. */
    static final class TransientFault extends RuntimeException {
        TransientFault(String detail) {
            super(detail, null, false, false);
        }
    }
}
