-- Status notifications are decided in the transaction that makes their transition and stored here with
-- it; they are sent after the commit and deleted once the broker has them. A row left behind (a crash
-- between the commit and the send, a broker outage longer than the sender holds messages) is sent again
-- by the relay: a notification exists exactly when its transition committed, delivered at least once.
-- JPA takes ids 50 at a time (allocationSize): each nextval is the top of a block, so it starts at 50.
CREATE SEQUENCE notification_outbox_seq START WITH 50 INCREMENT BY 50;
CREATE TABLE notification_outbox (
    id             BIGINT        PRIMARY KEY,
    order_id       VARCHAR(36)   NOT NULL,
    destination    VARCHAR(200)  NOT NULL,
    topic          BOOLEAN       NOT NULL,
    correlation_id VARCHAR(200)  NOT NULL,
    event          VARCHAR(32)   NOT NULL,
    body           VARCHAR(4000) NOT NULL,
    created_at     TIMESTAMPTZ   NOT NULL,
    -- When the relay last handed the row to the sender: not again before a while has passed.
    attempted_at   TIMESTAMPTZ   NOT NULL
);
CREATE INDEX notification_outbox_attempted ON notification_outbox (attempted_at);
INSERT INTO job_lease (name, holder, expires_at) VALUES ('notification-relay', NULL, TIMESTAMPTZ '1970-01-01 00:00:00+00');
