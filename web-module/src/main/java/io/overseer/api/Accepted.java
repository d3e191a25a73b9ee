package io.overseer.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;

/** The answer to an accepted submission (and, unchanged, to every replay of it with its Idempotency-Key). */
@JsonbPropertyOrder({"orderId", "processState"})
public record Accepted(String orderId, String processState) {

    static Accepted pending(String orderId) {
        return new Accepted(orderId, "Pending");
    }
}
