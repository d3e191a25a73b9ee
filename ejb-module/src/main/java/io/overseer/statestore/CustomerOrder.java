package io.overseer.statestore;

import java.util.Map;
import java.util.HashMap;
import jakarta.persistence.MapKeyColumn;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** An order as the customer placed it: the "orders database" of the pattern. Immutable once written. */
@Entity
@Table(name = "customer_order")
public class CustomerOrder {

    @Id
    @Column(name = "order_id", length = 36)
    private String orderId;

    @Column(name = "customer_id", nullable = false, length = 100)
    private String customerId;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "order_line", joinColumns = @JoinColumn(name = "order_id"))
    @OrderColumn(name = "line_no")
    private List<OrderLine> lines = new ArrayList<>();

    /**
     * Business attributes (name → value and the order's created_at), as submitted; empty for most orders, and
     * then no row is written.
     */
    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "order_attribute", joinColumns = @JoinColumn(name = "order_id"))
    @MapKeyColumn(name = "name", length = 40)
    private Map<String, AttributeValue> attributes = new HashMap<>();

    @Column(name = "created_at", nullable = false)
    private OffsetDateTime createdAt;

    protected CustomerOrder() {
        // for JPA
    }

    public CustomerOrder(String orderId, String customerId, List<OrderLine> lines, OffsetDateTime createdAt) {
        this(orderId, customerId, lines, Map.of(), createdAt);
    }

    public CustomerOrder(String orderId, String customerId, List<OrderLine> lines, Map<String, String> attributes,
                         OffsetDateTime createdAt) {
        this.orderId = orderId;
        this.customerId = customerId;
        this.lines = new ArrayList<>(lines);
        attributes.forEach((name, value) -> this.attributes.put(name, new AttributeValue(value, createdAt, customerId)));
        this.createdAt = createdAt;
    }

    public String orderId() {
        return orderId;
    }

    public String customerId() {
        return customerId;
    }

    public List<OrderLine> lines() {
        return List.copyOf(lines);
    }

    /** The business attributes, sorted by name. */
    public Map<String, String> attributes() {
        java.util.TreeMap<String, String> sorted = new java.util.TreeMap<>();
        attributes.forEach((name, value) -> sorted.put(name, value.value()));
        return java.util.Collections.unmodifiableMap(sorted);
    }

    public boolean hasAttributes() {
        return !attributes.isEmpty();
    }

    public OffsetDateTime createdAt() {
        return createdAt;
    }
}
