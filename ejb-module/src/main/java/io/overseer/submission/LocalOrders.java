package io.overseer.submission;

import io.overseer.messaging.BrokerUnavailableException;
import jakarta.annotation.Resource;
import jakarta.ejb.SessionContext;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.security.Principal;
import java.util.List;

/**
 * Submitting orders from a team's own code in the same application, without HTTP or JMS: a scheduled job
 * (db-scheduler, JobRunr, an EJB timer), a bean that records a sale and wants it fulfilled. Inject it
 * ({@code @Inject LocalOrders orders;} or {@code @EJB}) in a module that sees Overseer's EJB module
 * (docs/local-api.md).
 *
 * <p><b>It joins the caller's transaction</b> ({@code REQUIRED}): the orders are written in it and commit
 * or roll back with the caller's own work; an order that may start now is claimed in it, and its first
 * request leaves only after that commit (as every message the application sends), so nothing ever runs an
 * order its caller rolled back. Without a transaction of the caller's, each call is one
 * of its own. An order is validated and refused as {@code POST /api/orders} would: a single order by
 * exception, one of a batch alone, in its {@link BatchResult} (the others are stored). A refusal does not
 * roll the caller's transaction back: the caller decides. A failure to store does (any runtime exception).
 *
 * <p>Keys: an order may carry an idempotency key (1–255 characters), scoped to the caller's principal
 * ({@code local:<name>}; the server's anonymous name for unauthenticated code, such as a scheduler's
 * thread): the same key and order again answers with the first order (replayed) and writes nothing; the
 * key with another order is refused. A job that may run twice (a retried task, two nodes) gives each order
 * the key of the business event it stands for.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.REQUIRED)
public class LocalOrders {

    @Inject
    OrderSubmission submission;
    @Resource
    SessionContext context;

    /**
     * Stores one order in the caller's transaction; it starts after that commit.
     *
     * @param idempotencyKey null for none
     * @throws InvalidOrderException the order is not valid (why, in its message); nothing written
     * @throws SubmissionKeyConflictException the key was used for another order; nothing written
     */
    public Submitted submit(OrderRequest order, String idempotencyKey)
            throws InvalidOrderException, SubmissionKeyConflictException, BrokerUnavailableException {
        BatchResult result = submitAll(List.of(BatchOrder.of(0, order, idempotencyKey))).get(0);
        if (result.accepted()) {
            return new Submitted(result.orderId(), result.replayed());
        }
        if (result.refusal().kind() == BatchResult.Refusal.Kind.KEY_REUSED) {
            throw new SubmissionKeyConflictException(result.refusal().reason());
        }
        throw new InvalidOrderException(result.refusal().reason());
    }

    /**
     * Stores many orders in the caller's transaction, each refused alone if it must be; the results come
     * in the orders' order (by {@link BatchOrder#index()}).
     *
     * @throws BatchTooLargeException more orders than {@code overseer.submission.max-batch}; nothing written
     */
    public List<BatchResult> submitAll(List<BatchOrder> orders) throws BatchTooLargeException, BrokerUnavailableException {
        Principal caller = context.getCallerPrincipal();
        return submission.submitAll(orders, BatchSource.local(caller == null ? "anonymous" : caller.getName()));
    }
}
