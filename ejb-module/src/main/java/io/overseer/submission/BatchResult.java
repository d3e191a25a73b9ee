package io.overseer.submission;

import java.util.List;

/**
 * What became of one order of a batch: accepted (a new order, or the earlier one its key created:
 * {@code replayed}), or refused alone, with the reason, while the batch's other orders were stored.
 *
 * @param index   the order's place in the batch
 * @param orderId the order, null if refused
 * @param refusal why it was refused, null if accepted
 */
public record BatchResult(int index, String orderId, boolean replayed, Refusal refusal) {

    static BatchResult created(int index, String orderId) {
        return new BatchResult(index, orderId, false, null);
    }

    static BatchResult replayed(int index, String orderId) {
        return new BatchResult(index, orderId, true, null);
    }

    public static BatchResult refused(int index, Refusal refusal) {
        return new BatchResult(index, null, false, refusal);
    }

    public boolean accepted() {
        return refusal == null;
    }

    /**
     * Why an order of a batch was refused: {@link Kind#INVALID} as {@link InvalidOrderException} refuses a
     * single order, {@link Kind#KEY_REUSED} as {@link SubmissionKeyConflictException} does.
     *
     * @param fields the offending fields of the order, when its validation names them (else empty)
     */
    public record Refusal(Kind kind, String reason, List<Field> fields) {

        public enum Kind { INVALID, KEY_REUSED }

        /** A field of the order (e.g. {@code items[0].sku}) and what is wrong with it. */
        public record Field(String field, String message) {
        }

        public static Refusal invalid(String reason) {
            return new Refusal(Kind.INVALID, reason, List.of());
        }

        static Refusal keyReused() {
            return new Refusal(Kind.KEY_REUSED, "idempotencyKey was already used for a different order;"
                    + " use a new key for a new order", List.of());
        }
    }
}
