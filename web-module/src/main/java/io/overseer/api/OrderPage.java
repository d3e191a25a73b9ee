package io.overseer.api;

import io.overseer.query.OrderSummary;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;

/** One page of the listing; {@code next} is the URL of the following page, null on the last one. */
@JsonbNillable
@JsonbPropertyOrder({"orders", "next"})
public record OrderPage(List<OrderSummary> orders, String next) {
}
