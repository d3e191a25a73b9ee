package io.overseer.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;

/**
 * The answer to a batch: how many of its orders were accepted (new or replayed) and refused, and one
 * result per order, in the batch's order.
 */
@JsonbPropertyOrder({"accepted", "refused", "results"})
public record OrderBatchAnswer(int accepted, int refused, List<Item> results) {

    /**
     * One order's result: {@code status} is what {@code POST /api/orders} would have answered for it alone —
     * 202 with its {@code orderId} and {@code location} ({@code replayed}: the earlier order of its key), or a
     * 400 or 422 with its {@code problem}.
     */
    @JsonbPropertyOrder({"index", "status", "orderId", "location", "processState", "replayed", "problem"})
    public record Item(int index, int status, String orderId, String location, String processState, Boolean replayed,
                       Problem problem) {
    }
}
