package io.overseer.submission;

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
import java.util.Comparator;
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
 *
 * <p>A submission may carry a {@link SubmissionKey}: the key is recorded in the order's transaction,
 * and a later submission with the same scope and key gets the first one's order instead of a new one
 * (or {@link SubmissionKeyConflictException} if its request differs) — see {@link SubmissionKeys}.
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
    SubmissionKeys keys;

    /** Stores a validated order and announces it to the schedulers. Returns the new order id. */
    public String submit(OrderRequest request) throws InvalidOrderException {
        return submitNew(request, workflowOf(request), UUID.randomUUID().toString());
    }

    /**
     * Like {@link #submit(OrderRequest)}, once per key: if an earlier submission with {@code key}'s scope
     * and key created an order, answers with that order ({@link Submitted#replayed()}) and writes nothing.
     *
     * @param key null for a submission without a key
     * @throws SubmissionKeyConflictException the key was taken by a request with another fingerprint
     */
    public Submitted submit(OrderRequest request, SubmissionKey key)
            throws InvalidOrderException, SubmissionKeyConflictException {
        WorkflowDefinition workflow = workflowOf(request); // before the key: a refused order takes no key
        String orderId = UUID.randomUUID().toString();
        Optional<Submitted> earlier = earlierFor(key, orderId);
        return earlier.isPresent() ? earlier.get() : new Submitted(submitNew(request, workflow, orderId), false);
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
        LOG.log(Level.INFO, "Order {0} replayed for a repeated submission key", taken.get().orderId());
        return Optional.of(new Submitted(taken.get().orderId(), true));
    }

    private String submitNew(OrderRequest request, WorkflowDefinition workflow, String orderId) {
        create(request, workflow, orderId);
        dispatchQueue.announce(orderId);
        return orderId;
    }

    /** Parses, validates and stores an order that arrived as JSON on the order queue. */
    public String accept(String json) throws InvalidOrderException {
        OrderRequest request;
        try {
            request = Json.read(json, OrderRequest.class);
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
        String orderId = UUID.randomUUID().toString();
        create(request, workflowOf(request), orderId);
        return orderId;
    }

    private WorkflowDefinition workflowOf(OrderRequest request) throws InvalidOrderException {
        String name = request.workflow() == null ? WorkflowRegistry.DEFAULT_WORKFLOW : request.workflow();
        return workflows.find(name).orElseThrow(() -> new InvalidOrderException("unknown workflow '" + name + "'"));
    }

    private void create(OrderRequest request, WorkflowDefinition workflow, String orderId) {
        var now = clocks.now();
        var lines = request.items().stream().map(item -> new OrderLine(item.sku(), item.quantity())).toList();
        store.create(new CustomerOrder(orderId, request.customerId(), lines, now), OrderState.pending(orderId,
                workflow.name(), workflow.stepNames(), now, Actor.of(Actor.Kind.submission, instance.id())));
        LOG.log(Level.INFO, "Order {0} Pending for customer {1} ({2})",
                new Object[] {orderId, request.customerId(), workflow.name()});
    }

    private static String describe(Set<? extends ConstraintViolation<?>> violations) {
        return violations.stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .map(v -> v.getPropertyPath() + " " + v.getMessage())
                .collect(Collectors.joining("; "));
    }
}
