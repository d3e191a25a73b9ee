-- Status notifications: where a submitter wants to hear about its order (its JMS reply-to, or the
-- replyTo of a REST order) and the correlation id each notification carries. One row per order that
-- asked; none for the others.
CREATE TABLE order_reply_to (
    order_id         VARCHAR(36)  PRIMARY KEY
        -- Deferred: the row is written in the order's transaction, and JPA does not promise to insert
        -- it after the order.
        REFERENCES customer_order (order_id) DEFERRABLE INITIALLY DEFERRED,
    destination      VARCHAR(200) NOT NULL,
    destination_type VARCHAR(16)  NOT NULL
        CHECK (destination_type IN ('QUEUE', 'TOPIC', 'TEMPORARY_QUEUE', 'TEMPORARY_TOPIC')),
    correlation_id   VARCHAR(200) NOT NULL,
    created_at       TIMESTAMPTZ  NOT NULL
);

