package io.overseer.api;

import jakarta.json.JsonValue;
import java.util.List;

/**
 * The body of {@code POST /api/orders/batch}: {@code {"orders":[order, …]}}, each order the body of
 * {@code POST /api/orders} plus, optionally, its own {@code idempotencyKey}. The orders stay JSON here, so
 * that one that cannot be bound is refused alone ({@link OrderBatchResource}), not the whole batch.
 */
public record OrderBatchRequest(List<JsonValue> orders) {
}
