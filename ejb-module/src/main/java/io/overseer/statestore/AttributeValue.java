package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.OffsetDateTime;

/**
 * A business attribute's value, stored with its order's creation time: order_attribute's listing index
 * (V20: name, value, created_at, order_id) then holds one attribute's orders in the listing's order, so a
 * filter on it reads one page of its matches, however many there are, and never sorts them. The row also
 * carries its order's customer (V21), and once the order settles a copy of its listing columns, which
 * {@link StateStore} writes by SQL and this mapping never reads.
 */
@Embeddable
public class AttributeValue {

    @Column(name = "value", nullable = false, length = 100)
    private String value;

    /** The order's created_at, copied: the listing orders and pages by it. */
    @Column(name = "created_at", nullable = false)
    private OffsetDateTime createdAt;

    /**
     * The order's customer, copied (V21): a listing driven by the attribute filters and shows it without
     * reading customer_order.
     */
    @Column(name = "customer_id", nullable = false, length = 100)
    private String customerId;

    protected AttributeValue() {
        // for JPA
    }

    AttributeValue(String value, OffsetDateTime createdAt, String customerId) {
        this.value = value;
        this.createdAt = createdAt;
        this.customerId = customerId;
    }

    String value() {
        return value;
    }
}
