package io.overseer.submission;

import io.overseer.notification.ReplyTo;
import io.overseer.notification.ReplyToRule;
import io.overseer.notification.StatusNotifier;
import io.overseer.platform.Clocks;
import io.overseer.platform.Json;
import io.overseer.scheduler.DispatchQueue;
import io.overseer.platform.InstanceIdentity;
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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The submission process of the pattern: writes the order and its state record (Pending, not locked,
 * no failures) in one transaction. Orders from HTTP are then announced on the order queue in that
 * same transaction; orders that arrived on the queue are claimed by the caller straight away.
 */
@Stateless
public class OrderSubmission {

    private static final Logger LOG = Logger.getLogger(OrderSubmission.class.getName());

    @Inject
    StateStore store;
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
    StatusNotifier notifier;
    @Inject
    MessageKeys messageKeys;

    /**
     * Stores a validated order and announces it to the schedulers. Returns the new order id. Status
     * notifications, if the order asks for them, carry the order id as their correlation id.
     */
    public String submit(OrderRequest request) throws InvalidOrderException {
        String orderId = create(request, workflowOf(request), replyTo(request, null), null, UUID.randomUUID().toString());
        dispatchQueue.announce(orderId);
        return orderId;
    }

    /**
     * Parses, validates and stores an order that arrived on the order queue. Its status notifications go
     * to the message's reply-to if it has one, else to the body's {@code replyTo}. A message whose
     * {@code idempotencyKey} its sender used before gets the order that key created (nothing is written),
     * or is refused if that order was a different one.
     */
    public String accept(OrderMessage message) throws InvalidOrderException {
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
        ReplyTo replyTo = replyTo(request, message.replyTo());
        String orderId = UUID.randomUUID().toString();
        if (message.idempotencyKey() != null) {
            Optional<String> earlier = earlierOrder(message, request, orderId);
            if (earlier.isPresent()) {
                return earlier.get();
            }
        }
        return create(request, workflow, replyTo, message.correlationId(), orderId);
    }

    /** Takes the message's key for {@code orderId}, or returns the order an earlier message with it created. */
    private Optional<String> earlierOrder(OrderMessage message, OrderRequest request, String orderId)
            throws InvalidOrderException {
        String scope = "jms:" + Objects.requireNonNullElse(message.sender(), "");
        String fingerprint = fingerprint(request);
        Optional<MessageKeys.Taken> taken = messageKeys.claim(scope, message.idempotencyKey(), fingerprint, orderId,
                clocks.now());
        if (taken.isPresent() && !taken.get().fingerprint().equals(fingerprint)) {
            throw new InvalidOrderException("idempotencyKey '" + message.idempotencyKey()
                    + "' was already used for a different order");
        }
        taken.ifPresent(t -> LOG.log(Level.INFO, "Order {0}: repeated idempotencyKey of {1}; nothing new written",
                new Object[] {t.orderId(), scope}));
        return taken.map(MessageKeys.Taken::orderId);
    }

    /** SHA-256 of the order's canonical JSON: the same order however its JSON was spaced or ordered. */
    static String fingerprint(OrderRequest request) {
        String workflow = request.workflow() == null ? WorkflowRegistry.DEFAULT_WORKFLOW : request.workflow();
        String canonical = Json.write(new OrderRequest(request.customerId(), request.items(), workflow, request.replyTo()));
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static ReplyTo replyTo(OrderRequest request, ReplyTo fromMessage) throws InvalidOrderException {
        ReplyTo replyTo = fromMessage != null ? fromMessage
                : request.replyTo() != null ? ReplyTo.parse(request.replyTo()) : null;
        if (replyTo != null) {
            var violation = ReplyToRule.violation(replyTo);
            if (violation.isPresent()) {
                throw new InvalidOrderException(violation.get());
            }
        }
        return replyTo;
    }

    private WorkflowDefinition workflowOf(OrderRequest request) throws InvalidOrderException {
        String name = request.workflow() == null ? WorkflowRegistry.DEFAULT_WORKFLOW : request.workflow();
        return workflows.find(name).orElseThrow(() -> new InvalidOrderException("unknown workflow '" + name + "'"));
    }

    private String create(OrderRequest request, WorkflowDefinition workflow, ReplyTo replyTo, String correlationId,
                          String orderId) {
        var now = clocks.now();
        if (replyTo != null) {
            notifier.subscribe(orderId, replyTo, correlationId != null ? correlationId : orderId);
        }
        var lines = request.items().stream().map(item -> new OrderLine(item.sku(), item.quantity())).toList();
        store.create(new CustomerOrder(orderId, request.customerId(), lines, now), OrderState.pending(orderId,
                workflow.name(), workflow.stepNames(), now, Actor.of(Actor.Kind.submission, instance.id())));
        LOG.log(Level.INFO, "Order {0} Pending for customer {1} ({2})",
                new Object[] {orderId, request.customerId(), workflow.name()});
        return orderId;
    }

    private static String describe(Set<? extends ConstraintViolation<?>> violations) {
        return violations.stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .map(v -> v.getPropertyPath() + " " + v.getMessage())
                .collect(Collectors.joining("; "));
    }
}
