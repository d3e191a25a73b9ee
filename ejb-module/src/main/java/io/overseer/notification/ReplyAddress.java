package io.overseer.notification;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/**
 * An order's subscription to its status notifications: where they go and the correlation id they carry.
 * Written with the order, in its transaction; never changed.
 */
@Entity
@Table(name = "order_reply_to")
public class ReplyAddress {

    @Id
    @Column(name = "order_id", length = 36)
    private String orderId;

    @Column(name = "destination", nullable = false, length = ReplyToRule.MAX_LENGTH)
    private String destination;

    @Enumerated(EnumType.STRING)
    @Column(name = "destination_type", nullable = false, length = 16)
    private ReplyTo.Kind destinationType;

    @Column(name = "correlation_id", nullable = false, length = 200)
    private String correlationId;

    @Column(name = "created_at", nullable = false)
    private OffsetDateTime createdAt;

    protected ReplyAddress() {
        // for JPA
    }

    ReplyAddress(String orderId, ReplyTo replyTo, String correlationId, OffsetDateTime createdAt) {
        this.orderId = orderId;
        this.destination = replyTo.name();
        this.destinationType = replyTo.kind();
        this.correlationId = correlationId;
        this.createdAt = createdAt;
    }

    public ReplyTo replyTo() {
        return new ReplyTo(destination, destinationType);
    }

    public String correlationId() {
        return correlationId;
    }
}
