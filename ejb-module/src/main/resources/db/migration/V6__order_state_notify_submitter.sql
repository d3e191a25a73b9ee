-- Whether the order has a reply-to (a row in order_reply_to), kept on the state record that every
-- transition locks anyway: the status notifier then looks the reply-to up only for the orders that
-- asked, instead of once per transition of every order.
ALTER TABLE order_state ADD COLUMN notify_submitter BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE order_state SET notify_submitter = TRUE WHERE order_id IN (SELECT order_id FROM order_reply_to);
