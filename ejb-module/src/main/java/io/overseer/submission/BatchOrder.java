package io.overseer.submission;

/**
 * One order of a batch ({@link OrderSubmission#submitAll}): where it stands in the batch, the order, and
 * what makes it safe to send again.
 *
 * @param index          its place in the batch, from 0: every answer about it names it
 * @param request        the order, validated with the batch ({@link BatchSubmission})
 * @param idempotencyKey the order's own key (1–255 visible ASCII characters), scoped as the batch's
 *                       {@link BatchSource#scope()}; null for none
 * @param correlationId  what its status notifications carry, if it asks for them; null for its order id
 */
public record BatchOrder(int index, OrderRequest request, String idempotencyKey, String correlationId) {

    /** An order of a batch without a correlation id of its own (over HTTP, in process). */
    public static BatchOrder of(int index, OrderRequest request, String idempotencyKey) {
        return new BatchOrder(index, request, idempotencyKey, null);
    }
}
