package io.overseer.submission;

import io.opentelemetry.api.trace.Span;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.notification.ReplyTo;
import io.overseer.workflow.WorkflowDefinition;
import jakarta.validation.ConstraintViolation;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Many orders in the caller's one transaction, each as {@link OrderSubmission} takes a single one: the
 * same validation, workflow, reply-to rule and delayed start, and every new order created by the same
 * per-order step ({@link OrderSubmission#submitNew}: claimed at once if it may start now, its first request
 * leaving after the commit). An order that fails any of them is
 * refused alone, with its reason; the others are stored.
 *
 * <p>Keys: the batch's keys are claimed in one statement ({@link SubmissionKeys#claimAll}), not one per
 * order; an order whose key an earlier submission took is answered with that order (replayed) or, if it
 * was another order, refused alone. Two orders of one batch with one key are one order, or the second is
 * refused, as if the second had come later. A refused order takes no key.
 *
 * <p>Not a bean: {@link OrderSubmission#submitAll} makes one per batch, in its transaction, and lends it
 * its own steps and resources.
 */
public final class BatchSubmission {

    /** The most orders one batch may hold, whatever brought it (HTTP, the order queue, a local caller). */
    public static final String MAX_BATCH_PROPERTY = "overseer.submission.max-batch";
    public static final String DEFAULT_MAX_BATCH = "100";

    private final OrderSubmission submission;
    /**
     * The message's own reply-to, once checked: it is every order's, and checking a temporary queue's owner
     * asks the broker, once per batch rather than once per order. Null until checked.
     */
    private Optional<ReplyTo> messageReplyTo;

    BatchSubmission(OrderSubmission submission) {
        this.submission = submission;
    }

    /** An order past validation, with the id it gets if it is new. */
    private record Ready(BatchOrder order, WorkflowDefinition workflow, ReplyTo replyTo, OffsetDateTime notBefore,
                         SubmissionKey key, String orderId) {
    }

    /** The results in the orders' order. */
    List<BatchResult> submit(List<BatchOrder> orders, BatchSource source, Span span) throws BrokerUnavailableException {
        List<BatchResult> results = new ArrayList<>(orders.size());
        List<Ready> ready = new ArrayList<>(orders.size());
        OffsetDateTime now = submission.clocks.now();
        for (BatchOrder order : orders) {
            try {
                ready.add(prepare(order, source, now));
            } catch (InvalidOrderException e) {
                results.add(BatchResult.refused(order.index(), refusal(e)));
            }
        }
        Map<String, SubmissionKeys.Taken> earlier = claimKeys(ready, source, now);
        Map<String, Ready> firstOfKey = new HashMap<>();
        for (Ready each : ready) {
            results.add(settle(each, earlier, firstOfKey, source, span));
        }
        results.sort(Comparator.comparingInt(BatchResult::index));
        return results;
    }

    /** Everything that may refuse the order, in the single submission's order, before any key is taken. */
    private Ready prepare(BatchOrder order, BatchSource source, OffsetDateTime now)
            throws InvalidOrderException, BrokerUnavailableException {
        OrderRequest request = order.request();
        if (request == null) {
            throw new InvalidOrderException("an order is required");
        }
        Set<ConstraintViolation<OrderRequest>> violations = submission.validator.validate(request);
        if (!violations.isEmpty()) {
            throw new InvalidBatchOrderException(violations);
        }
        WorkflowDefinition workflow = submission.workflowOf(request);
        ReplyTo replyTo = replyTo(request, source);
        OffsetDateTime notBefore = DelayedStart.of(request.notBefore(), now).orElse(null);
        SubmissionKey key = null;
        if (order.idempotencyKey() != null) {
            if (order.idempotencyKey().isBlank() || order.idempotencyKey().length() > SubmissionKey.MAX_KEY) {
                throw new InvalidOrderException("idempotencyKey must be 1-" + SubmissionKey.MAX_KEY + " characters");
            }
            key = SubmissionKey.of(source.scope(), order.idempotencyKey(), request);
        }
        return new Ready(order, workflow, replyTo, notBefore, key, UUID.randomUUID().toString());
    }

    private ReplyTo replyTo(OrderRequest request, BatchSource source) throws InvalidOrderException, BrokerUnavailableException {
        if (source.replyTo() == null) {
            return submission.replyTo(request, null, source.submitter());
        }
        if (messageReplyTo == null) {
            // A refusal is every order's too: each is refused with it, checked again (it costs nothing then).
            messageReplyTo = Optional.ofNullable(submission.replyTo(request, source.replyTo(), source.submitter()));
        }
        return messageReplyTo.orElse(null);
    }

    /**
     * One statement for all the keys, the first order of each key taking it; what earlier submissions took
     * comes back, by key.
     */
    private Map<String, SubmissionKeys.Taken> claimKeys(List<Ready> ready, BatchSource source, OffsetDateTime now) {
        Map<String, SubmissionKeys.Taken> wanted = new LinkedHashMap<>();
        for (Ready each : ready) {
            if (each.key() != null) {
                wanted.putIfAbsent(each.key().key(), new SubmissionKeys.Taken(each.orderId(), each.key().fingerprint()));
            }
        }
        return wanted.isEmpty() ? Map.of() : submission.keys.claimAll(source.scope(), wanted, now);
    }

    private BatchResult settle(Ready each, Map<String, SubmissionKeys.Taken> earlier, Map<String, Ready> firstOfKey,
                               BatchSource source, Span span) {
        int index = each.order().index();
        if (each.key() != null) {
            SubmissionKeys.Taken taken = earlier.get(each.key().key());
            Ready first = firstOfKey.putIfAbsent(each.key().key(), each);
            if (taken == null && first != null) {
                taken = new SubmissionKeys.Taken(first.orderId(), first.key().fingerprint()); // its key's order in this batch
            }
            if (taken != null) {
                if (!taken.fingerprint().equals(each.key().fingerprint())) {
                    return BatchResult.refused(index, BatchResult.Refusal.keyReused());
                }
                if (source.announceReplays() && first == null) {
                    submission.dispatchQueue.announce(taken.orderId());
                }
                return BatchResult.replayed(index, taken.orderId());
            }
        }
        submission.submitNew(each.order().request(), each.workflow(), each.replyTo(), each.notBefore(),
                each.order().correlationId(), each.orderId(), span);
        return BatchResult.created(index, each.orderId());
    }

    private static BatchResult.Refusal refusal(InvalidOrderException e) {
        if (e instanceof InvalidBatchOrderException invalid) {
            return new BatchResult.Refusal(BatchResult.Refusal.Kind.INVALID, e.getMessage(), invalid.fields());
        }
        return BatchResult.Refusal.invalid(e.getMessage());
    }

    /** An order of the batch that Bean Validation refuses: the reason, and the fields it names. */
    private static final class InvalidBatchOrderException extends InvalidOrderException {
        private static final long serialVersionUID = 1L;
        private final transient List<BatchResult.Refusal.Field> fields;

        InvalidBatchOrderException(Set<ConstraintViolation<OrderRequest>> violations) {
            super("invalid order: " + OrderSubmission.describe(violations));
            fields = violations.stream()
                    .map(v -> new BatchResult.Refusal.Field(v.getPropertyPath().toString(), v.getMessage()))
                    .sorted(Comparator.comparing(BatchResult.Refusal.Field::field))
                    .toList();
        }

        List<BatchResult.Refusal.Field> fields() {
            return fields;
        }
    }
}
