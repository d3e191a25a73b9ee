package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;

/**
 * One applied effect. It is both the journal line and the 200 answer, which is what lets a replay
 * (even after a restart) return exactly the first answer.
 */
@JsonPropertyOrder({"effectId", "orderId", "operation", "idempotencyKey", "appliedAt"})
record EffectRecord(String effectId, String orderId, String operation, String idempotencyKey, Instant appliedAt) {

    boolean isComplete() {
        return effectId != null && orderId != null && operation != null
                && idempotencyKey != null && appliedAt != null;
    }

    boolean sameRequestAs(String otherOrderId, String otherOperation) {
        return orderId.equals(otherOrderId) && operation.equals(otherOperation);
    }
}
