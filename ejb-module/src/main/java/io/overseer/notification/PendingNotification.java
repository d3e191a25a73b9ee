package io.overseer.notification;

import io.overseer.messaging.Destinations;
import io.overseer.messaging.Parcel;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.Map;

/**
 * A status notification decided by a committed transition and not yet known to be with the broker (the
 * outbox). Ids come from a sequence fetched 50 at a time, so a transaction's rows are inserted in one
 * batch without a round trip each.
 */
@Entity
@Table(name = "notification_outbox")
public class PendingNotification {

    /** The parcel's receipt names the row, so that the sender's confirmation can delete it. */
    static final String RECEIPT_PREFIX = "notification:";

    @Id
    @SequenceGenerator(name = "notification_outbox_seq", sequenceName = "notification_outbox_seq", allocationSize = 50)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "notification_outbox_seq")
    @Column(name = "id")
    private Long id;
    @Column(name = "order_id", nullable = false, length = 36)
    private String orderId;
    @Column(name = "destination", nullable = false, length = 200)
    private String destination;
    @Column(name = "topic", nullable = false)
    private boolean topic;
    @Column(name = "correlation_id", nullable = false, length = 200)
    private String correlationId;
    @Column(name = "event", nullable = false, length = 32)
    private String event;
    @Column(name = "body", nullable = false, length = 4000)
    private String body;
    @Column(name = "created_at", nullable = false)
    private OffsetDateTime createdAt;
    @Column(name = "attempted_at", nullable = false)
    private OffsetDateTime attemptedAt;

    protected PendingNotification() {
        // for JPA
    }

    PendingNotification(String orderId, ReplyTo replyTo, String correlationId, String event, String body,
                        OffsetDateTime now) {
        this.orderId = orderId;
        this.destination = replyTo.name();
        this.topic = replyTo.kind().isTopic();
        this.correlationId = correlationId;
        this.event = event;
        this.body = body;
        this.createdAt = now;
        this.attemptedAt = now;
    }

    /** The message, carrying a receipt that names this row; call after the row has its id (persisted). */
    Parcel parcel() {
        return Parcel.single(destination, topic, body, Map.of(Destinations.ORDER_ID, orderId, Destinations.EVENT, event),
                correlationId, null).withReceipt(RECEIPT_PREFIX + id);
    }

    void attempted(OffsetDateTime now) {
        attemptedAt = now;
    }
}
