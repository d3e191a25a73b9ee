package io.overseer.submission;

import io.opentelemetry.api.trace.Span;
import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.notification.ReplyTo;
import io.overseer.notification.ReplyToRule;
import io.overseer.notification.StatusNotifier;
import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.messaging.DispatchQueue;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.TraceParent;
import io.overseer.platform.Tracing;
import io.overseer.scheduler.Scheduler;
import io.overseer.statestore.Actor;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.OrderLine;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.bind.JsonbException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The submission process of the pattern: validates an order and hands it to the scheduler, which writes
 * it and its state record already claimed, in the same transaction, its first attempt leaving after the
 * commit ({@link Scheduler#admit}) — whether it came over HTTP or on the queue. A delayed order is written
 * Pending instead, for the due-order poller to claim at its not-before.
 *
 * <p>A submission may carry a {@link SubmissionKey}: the key is recorded in the order's transaction,
 * and a later submission with the same scope and key gets the first one's order instead of a new one
 * (or {@link SubmissionKeyConflictException} if its request differs) — see {@link SubmissionKeys}.
 * HTTP's Idempotency-Key and the order queue's idempotencyKey (scope {@code jms:<broker user>}) share it.
 *
 * <p>A submission may ask for status notifications (a reply-to): recorded with the order, in its
 * transaction, before its first transition — see {@link StatusNotifier}.
 */
@Stateless
public class OrderSubmission {

    private static final Logger LOG = Logger.getLogger(OrderSubmission.class.getName());
    static final String SUBMIT_SPAN = "submit order";
    static final String SUBMIT_BATCH_SPAN = "submit orders";
    /** The submission span's outcomes: a new order, or the earlier order of a repeated key. */
    static final String CREATED = "created";
    static final String REPLAYED = "replayed";

    @Inject
    StateStore store;
    @Inject
    Scheduler scheduler;
    @Inject
    DispatchQueue dispatchQueue;
    @Inject
    Validator validator;
    @Inject
    Clocks clocks;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    InstanceIdentity instance;
    @Inject
    SubmissionKeys keys;
    @Inject
    StatusNotifier notifier;
    @Inject
    BrokerQueues brokerQueues;
    @Inject
    Tracing tracing;
    @Inject
    @ConfigProperty(name = BatchSubmission.MAX_BATCH_PROPERTY, defaultValue = BatchSubmission.DEFAULT_MAX_BATCH)
    int maxBatch;

    /**
     * Stores a validated order, claimed at once if it may start now, once per key: if an earlier submission
     * with {@code key}'s scope and key created an order, answers with that order
     * ({@link Submitted#replayed()}) and writes nothing. Status notifications, if the order asks for them,
     * carry the order id as their correlation id.
     *
     * @param key null for a submission without a key
     * @param submitter the HTTP user: whose reply-to the order may name ({@link ReplyToRule})
     * @throws SubmissionKeyConflictException the key was taken by a request with another fingerprint
     * @throws BrokerUnavailableException the broker could not say who owns the temporary queue named as reply-to
     */
    public Submitted submit(OrderRequest request, SubmissionKey key, String submitter)
            throws InvalidOrderException, SubmissionKeyConflictException, BrokerUnavailableException {
        Span span = tracing.entry(SUBMIT_SPAN);
        try {
            WorkflowDefinition workflow = workflowOf(request); // before the key: a refused order takes no key
            ReplyTo replyTo = replyTo(request, null, submitter);
            OffsetDateTime notBefore = DelayedStart.of(request.notBefore(), clocks.now()).orElse(null);
            String orderId = UUID.randomUUID().toString();
            Optional<Submitted> earlier = earlierFor(key, orderId);
            Submitted submitted = earlier.isPresent() ? earlier.get()
                    : new Submitted(submitNew(request, workflow, replyTo, notBefore, orderId, orderId, span), false);
            traced(span, submitted.orderId(), submitted.replayed() ? REPLAYED : CREATED, workflow);
            return submitted;
        } catch (InvalidOrderException | SubmissionKeyConflictException | BrokerUnavailableException
                 | RuntimeException e) {
            refused(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    /**
     * Stores many orders in one transaction (the caller's, if it has one), each validated and created as
     * a single one, each refused alone if it must be ({@link BatchSubmission}); the answers come in the
     * orders' order. One span for the batch: its orders' traces are its children.
     *
     * @throws BatchTooLargeException more orders than {@code overseer.submission.max-batch}: nothing stored
     * @throws BrokerUnavailableException the broker could not say who owns a temporary queue named as reply-to
     */
    public List<BatchResult> submitAll(List<BatchOrder> orders, BatchSource source)
            throws BatchTooLargeException, BrokerUnavailableException {
        if (orders.size() > maxBatch) {
            throw new BatchTooLargeException(orders.size(), maxBatch);
        }
        Span span = tracing.entry(SUBMIT_BATCH_SPAN);
        try {
            List<BatchResult> results = new BatchSubmission(this).submit(orders, source, span);
            if (span.isRecording()) {
                span.setAttribute(Tracing.INSTANCE, instance.id());
                span.setAttribute("overseer.batch.orders", orders.size());
            }
            return results;
        } catch (BrokerUnavailableException | RuntimeException e) {
            refused(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    /**
     * Takes {@code key} for the order about to be created as {@code orderId} (nothing to do without a
     * key), or returns the order an earlier submission created with it.
     */
    private Optional<Submitted> earlierFor(SubmissionKey key, String orderId) throws SubmissionKeyConflictException {
        if (key == null) {
            return Optional.empty();
        }
        Optional<SubmissionKeys.Taken> taken = keys.claim(key, orderId, clocks.now());
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        if (!taken.get().fingerprint().equals(key.fingerprint())) {
            throw new SubmissionKeyConflictException("The key was already used for a different request");
        }
        LOG.log(Level.FINE, "Order {0} replayed for a repeated submission key", taken.get().orderId());
        return Optional.of(new Submitted(taken.get().orderId(), true));
    }

    /**
     * Creates one new order (claimed at once if it may start now, {@link #create}): every order, single or of
     * a batch ({@link BatchSubmission}), comes into being here.
     */
    String submitNew(OrderRequest request, WorkflowDefinition workflow, ReplyTo replyTo,
                     OffsetDateTime notBefore, String correlationId, String orderId, Span span) {
        create(request, workflow, replyTo, notBefore, correlationId, orderId, span);
        return orderId;
    }

    /**
     * Parses, validates and stores an order that arrived on the order queue. Its status notifications go
     * to the message's reply-to if it has one, else to the body's {@code replyTo}. A message whose
     * {@code idempotencyKey} its sender used before gets the order that key created (nothing is written),
     * or is refused if that order was a different one.
     *
     * <p>That earlier order is announced again: the message may be a redelivery after a crash between
     * the first delivery's commit and the departure of what it decided (its first request, or the hint of an
     * order stored Pending by an instance shutting down, waits in memory until then). A hint for an order
     * already claimed, or still delayed, claims nothing; a claimed attempt whose request was lost expires
     * and the supervisor retries it.
     */
    public String accept(OrderMessage message) throws InvalidOrderException, BrokerUnavailableException {
        Span span = tracing.entry(SUBMIT_SPAN);
        try {
            OrderRequest request;
            try {
                request = Json.read(message.json(), OrderRequest.class);
            } catch (JsonbException e) {
                throw new InvalidOrderException("malformed order JSON: " + e.getMessage());
            }
            if (request == null) {
                throw new InvalidOrderException("empty order");
            }
            Set<ConstraintViolation<OrderRequest>> violations = validator.validate(request);
            if (!violations.isEmpty()) {
                throw new InvalidOrderException("invalid order: " + describe(violations));
            }
            // Everything that may refuse the order comes before the key: a refused order takes no key.
            WorkflowDefinition workflow = workflowOf(request);
            ReplyTo replyTo = replyTo(request, message.replyTo(), message.sender());
            OffsetDateTime notBefore = DelayedStart.of(request.notBefore(), clocks.now()).orElse(null);
            String orderId = UUID.randomUUID().toString();
            Optional<Submitted> earlier;
            try {
                earlier = earlierFor(messageKey(message, request), orderId);
            } catch (SubmissionKeyConflictException e) {
                throw new InvalidOrderException("idempotencyKey '" + message.idempotencyKey()
                        + "' was already used for a different order");
            }
            if (earlier.isPresent()) {
                dispatchQueue.announce(earlier.get().orderId());
                traced(span, earlier.get().orderId(), REPLAYED, workflow);
                return earlier.get().orderId();
            }
            submitNew(request, workflow, replyTo, notBefore, message.correlationId(), orderId, span);
            traced(span, orderId, CREATED, workflow);
            return orderId;
        } catch (InvalidOrderException | BrokerUnavailableException | RuntimeException e) {
            refused(span, e);
            throw e;
        } finally {
            span.end();
        }
    }

    /** The message's key, scoped by the broker-validated user: two users never share keys. */
    private static SubmissionKey messageKey(OrderMessage message, OrderRequest request) throws InvalidOrderException {
        if (message.idempotencyKey() == null) {
            return null;
        }
        try {
            return SubmissionKey.of("jms:" + Objects.requireNonNullElse(message.sender(), ""), message.idempotencyKey(),
                    request);
        } catch (IllegalArgumentException e) {
            throw new InvalidOrderException("idempotencyKey not usable: " + e.getMessage());
        }
    }

    /**
     * The order's reply-to if {@code submitter} may name it ({@link ReplyToRule}). A temporary queue must
     * have been created by the submitter, which the broker alone knows. One that no longer exists (its
     * connection closed while the order waited on the queue) takes no notifications: the order goes on,
     * and nobody can later create a queue of that name to read them.
     */
    ReplyTo replyTo(OrderRequest request, ReplyTo fromMessage, String submitter)
            throws InvalidOrderException, BrokerUnavailableException {
        ReplyTo replyTo = fromMessage != null ? fromMessage
                : request.replyTo() != null ? ReplyTo.parse(request.replyTo()) : null;
        if (replyTo == null) {
            return null;
        }
        var violation = ReplyToRule.violation(replyTo, submitter);
        if (violation.isPresent()) {
            throw new InvalidOrderException(violation.get());
        }
        if (!ReplyToRule.needsOwnerCheck(replyTo)) {
            return replyTo;
        }
        Optional<String> owner = brokerQueues.queueOwner(replyTo.name());
        if (owner.isEmpty()) {
            LOG.log(Level.INFO, "Reply-to {0} of an order from {1} no longer exists; the order goes on without"
                    + " status notifications", new Object[] {replyTo, submitter});
            return null;
        }
        if (!owner.get().equals(submitter)) {
            throw new InvalidOrderException("reply-to '" + replyTo.name() + "' is a temporary queue of another"
                    + " broker user; name one of your own connection");
        }
        return replyTo;
    }

    WorkflowDefinition workflowOf(OrderRequest request) throws InvalidOrderException {
        String name = request.workflow() == null ? WorkflowRegistry.DEFAULT_WORKFLOW : request.workflow();
        return workflows.find(name).orElseThrow(() -> new InvalidOrderException("unknown workflow '" + name + "'"));
    }

    /**
     * Writes the order: claimed by the scheduler in this transaction if it may start now, else (a delayed
     * start) Pending. Notifications, if asked for, carry {@code correlationId}, or the order id if there is none.
     */
    private void create(OrderRequest request, WorkflowDefinition workflow, ReplyTo replyTo, OffsetDateTime notBefore,
                        String correlationId, String orderId, Span span) {
        var now = clocks.now();
        OrderState state = OrderState.pending(orderId, workflow, now, Actor.of(Actor.Kind.submission, instance.id()),
                notBefore);
        state.traceAs(TraceParent.of(span)); // every later span of the order is a child of this one
        if (replyTo != null) {
            notifier.subscribe(orderId, replyTo, correlationId != null ? correlationId : orderId);
            state.notifySubmitter();
        }
        var lines = request.items().stream().map(item -> new OrderLine(item.sku(), item.quantity())).toList();
        var order = new CustomerOrder(orderId, request.customerId(), lines, request.attributesOrEmpty(), now);
        if (notBefore == null) {
            scheduler.admit(order, state);
        } else {
            store.create(order, state); // not announced: nothing may claim it yet, the due-order poller finds it in time
        }
        LOG.log(Level.FINE, "Order {0} (trace {3}) stored for customer {1} ({2})",
                new Object[] {orderId, request.customerId(), workflow.name(), TraceParent.traceId(state.traceParent())});
    }

    /** What the submission span says once the outcome is known: created, or replayed (an earlier order's key). */
    private void traced(Span span, String orderId, String outcome, WorkflowDefinition workflow) {
        if (span.isRecording()) {
            span.setAttribute(Tracing.ORDER_ID, orderId);
            span.setAttribute(Tracing.OUTCOME, outcome);
            span.setAttribute(Tracing.WORKFLOW, workflow.name());
            if (workflow.version() != null) {
                span.setAttribute(Tracing.WORKFLOW_VERSION, workflow.version());
            }
            span.setAttribute(Tracing.INSTANCE, instance.id());
        }
    }

    /** A submission refused (invalid, a key conflict, the broker unreachable): its span says why. */
    private static void refused(Span span, Exception e) {
        if (span.isRecording()) {
            span.setAttribute(Tracing.OUTCOME, e instanceof SubmissionKeyConflictException ? "conflict" : "refused");
            Tracing.failed(span, e.getMessage());
        }
    }

    static String describe(Set<? extends ConstraintViolation<?>> violations) {
        return violations.stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .map(v -> v.getPropertyPath() + " " + v.getMessage())
                .collect(Collectors.joining("; "));
    }
}
