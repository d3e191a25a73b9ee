package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** One line of an order: a SKU and how many. */
@Embeddable
public class OrderLine {

    @Column(name = "sku", nullable = false, length = 64)
    private String sku;

    @Column(name = "quantity", nullable = false)
    private int quantity;

    protected OrderLine() {
        // for JPA
    }

    public OrderLine(String sku, int quantity) {
        this.sku = sku;
        this.quantity = quantity;
    }

    public String sku() {
        return sku;
    }

    public int quantity() {
        return quantity;
    }
}
