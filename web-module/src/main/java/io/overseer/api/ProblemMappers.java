package io.overseer.api;

import io.overseer.platform.Outage;
import jakarta.json.bind.JsonbException;
import jakarta.json.stream.JsonParsingException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns every exception that leaves a resource into an RFC 9457 problem response. Bodies never carry
 * stack traces; unexpected failures are logged here with their cause.
 */
public final class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class.getName());

    private ProblemMappers() {
    }

    static Response respond(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }

    /** Bean Validation failures on request bodies: 400 naming each field. */
    @Provider
    public static class Validation implements ExceptionMapper<ConstraintViolationException> {
        @Override
        public Response toResponse(ConstraintViolationException e) {
            List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                    .map(v -> new Problem.FieldError(field(v), v.getMessage()))
                    .sorted(Comparator.comparing(Problem.FieldError::field))
                    .toList();
            return respond(new Problem("about:blank", "Invalid request", 400,
                    "The request is not valid", errors));
        }

        /**
         * "submit.order.items[0].sku" → "items[0].sku": drop the method and parameter nodes. A violation
         * of a header or query parameter itself is named as the client spells it ("Idempotency-Key").
         */
        private static String field(ConstraintViolation<?> violation) {
            StringBuilder field = new StringBuilder();
            Path.MethodNode method = null;
            String parameter = null;
            for (Path.Node node : violation.getPropertyPath()) {
                if (node.getKind() == ElementKind.METHOD) {
                    method = node.as(Path.MethodNode.class);
                    continue;
                }
                if (node.getKind() == ElementKind.PARAMETER) {
                    parameter = ViolationParameters.httpName(violation.getRootBeanClass(), method,
                            node.as(Path.ParameterNode.class).getParameterIndex());
                    continue;
                }
                // A node inside a list carries the index of the element it sits in: items[0].sku.
                if (node.isInIterable() && node.getIndex() != null) {
                    field.append('[').append(node.getIndex()).append(']');
                }
                if (node.getName() != null && !node.getName().startsWith("<")) {
                    field.append(field.isEmpty() ? "" : ".").append(node.getName());
                }
            }
            if (field.isEmpty()) {
                return parameter != null ? parameter : "body";
            }
            return field.toString();
        }
    }

    /** A body or query that is not what the API takes: 400 naming the fields, when there are any. */
    @Provider
    public static class InvalidRequest implements ExceptionMapper<InvalidRequestException> {
        @Override
        public Response toResponse(InvalidRequestException e) {
            List<Problem.FieldError> errors = e.errors().isEmpty() ? null : e.errors();
            return respond(new Problem("about:blank", "Invalid request", 400, e.getMessage(), errors));
        }
    }

    /** An Idempotency-Key already used for a different request: 422, nothing written. */
    @Provider
    public static class KeyReused implements ExceptionMapper<io.overseer.submission.SubmissionKeyConflictException> {
        @Override
        public Response toResponse(io.overseer.submission.SubmissionKeyConflictException e) {
            return respond(Problem.of(422, "Idempotency-Key reused",
                    "This Idempotency-Key was already used for a different request; use a new key for a new order"));
        }
    }

    /**
     * A batch of more orders than {@code overseer.submission.max-batch}: 413 (RFC 9110: more content than the
     * server is willing to process), nothing stored; the detail says the bound, to split by.
     */
    @Provider
    public static class BatchTooLarge implements ExceptionMapper<io.overseer.submission.BatchTooLargeException> {
        @Override
        public Response toResponse(io.overseer.submission.BatchTooLargeException e) {
            return respond(new Problem("about:blank", "Content Too Large", 413, "A batch holds at most " + e.max()
                    + " orders; nothing was stored. Split it", List.of(new Problem.FieldError("orders",
                    "at most " + e.max() + " orders"))));
        }
    }

    /** An order the application refuses as it stands (e.g. an unknown workflow): 400. */
    @Provider
    public static class InvalidOrder implements ExceptionMapper<io.overseer.submission.InvalidOrderException> {
        @Override
        public Response toResponse(io.overseer.submission.InvalidOrderException e) {
            return respond(Problem.of(400, "Invalid order", e.getMessage()));
        }
    }

    /** A bulk job refused as asked (everything without saying so, nothing, too many): 400 naming the field. */
    @Provider
    public static class BulkRefused implements ExceptionMapper<io.overseer.admin.BulkRefusedException> {
        @Override
        public Response toResponse(io.overseer.admin.BulkRefusedException e) {
            return respond(new Problem("about:blank", "Invalid request", 400, e.getMessage(),
                    List.of(new Problem.FieldError(e.field(), e.getMessage()))));
        }
    }

    /** An action the order's state does not allow (e.g. resubmitting a Processed order): 409. */
    @Provider
    public static class Conflict implements ExceptionMapper<io.overseer.statestore.IllegalTransitionException> {
        @Override
        public Response toResponse(io.overseer.statestore.IllegalTransitionException e) {
            return respond(Problem.of(409, "Conflict", e.getMessage()));
        }
    }

    /**
     * The broker did not answer a management call in time, or refused it (the admin API's queue counts and
     * dead-letter actions): 503 with Retry-After and the reason; logged once per outage at most every 30 s.
     */
    @Provider
    public static class BrokerUnavailable implements ExceptionMapper<io.overseer.messaging.BrokerUnavailableException> {
        private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(30);
        private static final AtomicLong LAST_LOG = new AtomicLong(System.nanoTime() - QUIET_NANOS);

        @Override
        public Response toResponse(io.overseer.messaging.BrokerUnavailableException e) {
            long last = LAST_LOG.get();
            long now = System.nanoTime();
            if (now - last >= QUIET_NANOS && LAST_LOG.compareAndSet(last, now)) {
                LOG.log(Level.WARNING, "The broker did not answer a management call; answered 503 (logged at most every 30 s): {0}",
                        e.getMessage());
            }
            return Response.fromResponse(respond(Problem.of(503, "Service Unavailable",
                    "The broker is not reachable just now: " + e.getMessage())))
                    .header("Retry-After", Unexpected.RETRY_AFTER_SECONDS).build();
        }
    }

    /** Malformed JSON or JSON of the wrong shape: 400. */
    @Provider
    public static class Unreadable implements ExceptionMapper<ProcessingException> {
        @Override
        public Response toResponse(ProcessingException e) {
            if (isJsonError(e)) {
                return respond(Problem.of(400, "Malformed request", "The request body is not valid JSON for an order"));
            }
            LOG.log(Level.SEVERE, "Request processing failed", e);
            return respond(Problem.of(500, "Internal Server Error", "The request could not be processed"));
        }

        private static boolean isJsonError(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof JsonbException || t instanceof JsonParsingException) {
                    return true;
                }
            }
            return false;
        }
    }

    /** One user holds its share of the event streams already: 429, and when to try again. */
    @Provider
    public static class TooManyStreams implements ExceptionMapper<OrderEventFeed.TooManyStreamsException> {
        @Override
        public Response toResponse(OrderEventFeed.TooManyStreamsException e) {
            return Response.fromResponse(respond(Problem.of(429, "Too Many Requests", e.getMessage())))
                    .header("Retry-After", OrderEventFeed.TooManyStreamsException.RETRY_AFTER_SECONDS).build();
        }
    }

    /** Standard HTTP errors thrown by JAX-RS or resources (404, 405, 415, …) keep their status. */
    @Provider
    public static class Http implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            Response.StatusType status = e.getResponse().getStatusInfo();
            // A 503 the application chose (a full instance) was logged where it decided, once per burst.
            if (status.getStatusCode() >= 500 && !(e instanceof jakarta.ws.rs.ServiceUnavailableException)) {
                LOG.log(Level.SEVERE, "Request failed", e);
            }
            String detail = status.getStatusCode() < 500 && e.getMessage() != null ? e.getMessage() : status.getReasonPhrase();
            Response problem = respond(Problem.of(status.getStatusCode(), status.getReasonPhrase(), detail));
            Object retryAfter = e.getResponse().getHeaderString("Retry-After"); // 429 and 503: when to come back
            return retryAfter == null ? problem : Response.fromResponse(problem).header("Retry-After", retryAfter).build();
        }
    }

    /**
     * Anything else is our fault: 500 without internals — unless the database is out (unreachable,
     * restarting, no connection to be had), which passes by itself: 503 with Retry-After, so that clients
     * retry instead of reporting an error, logged once per outage rather than once per request.
     */
    @Provider
    public static class Unexpected implements ExceptionMapper<RuntimeException> {
        /** Seconds a client is asked to wait: about what PostgreSQL takes to restart after a crash. */
        static final int RETRY_AFTER_SECONDS = 5;
        private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(30);
        private static final AtomicLong LAST_OUTAGE_LOG =
                new AtomicLong(System.nanoTime() - QUIET_NANOS);

        @Override
        public Response toResponse(RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof ConstraintViolationException violation) {
                    return new Validation().toResponse(violation);
                }
            }
            if (Outage.isOutage(e)) {
                logOutage(e);
                return Response.fromResponse(respond(Problem.of(503, "Service Unavailable",
                        "The database is not reachable just now. Retry later; a retry with the same Idempotency-Key"
                                + " never makes a second order.")))
                        .header("Retry-After", RETRY_AFTER_SECONDS).build();
            }
            LOG.log(Level.SEVERE, "Unexpected failure", e);
            return respond(Problem.of(500, "Internal Server Error", "The request could not be processed"));
        }

        private static void logOutage(RuntimeException e) {
            long last = LAST_OUTAGE_LOG.get();
            long now = System.nanoTime();
            if (now - last >= QUIET_NANOS && LAST_OUTAGE_LOG.compareAndSet(last, now)) {
                LOG.log(Level.WARNING, "The database is not reachable; requests are answered 503 (logged at most every 30 s): {0}",
                        e.toString());
            }
        }
    }
}
