package io.overseer.query;

import io.overseer.statestore.ProcessState;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.OffsetDateTime;

/** One line of the order listing: the task's state without its steps (GET /api/orders/{id} has them). */
@JsonbPropertyOrder({"orderId", "customerId", "workflow", "processState", "notBefore", "createdAt", "updatedAt"})
public record OrderSummary(String orderId, String customerId, String workflow, ProcessState processState,
                           OffsetDateTime notBefore, OffsetDateTime createdAt, OffsetDateTime updatedAt) {
}
