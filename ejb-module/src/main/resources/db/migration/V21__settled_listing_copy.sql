-- Issue 29, decision 0024: a filter on one attribute costs the same at 10 k and 1 M finished orders. V20's
-- listing index made a page one range of the attribute's rows, but each row still looked its order up in
-- order_state and customer_order by key (102 lookups a page), one B-tree level deeper and spread over a
-- 100 times larger table at 1 M orders (BENCHMARKS.md, "Business attributes at scale"). A settled order
-- (Processed, Compensated: no transition leaves them; Error does, by an operator) never changes its listing
-- columns again, so its attribute rows keep a copy of them, written in the transaction that settles it
-- (StateStore.COPY_LISTING_SQL); the customer, which never changes, is copied when the rows are written.
-- The listing reads a settled order from the attribute's rows alone and looks order_state up only for an
-- order not settled (ListingSql).

-- Whether the order has attribute rows to copy into: an order without attributes pays nothing when it settles.
ALTER TABLE order_state ADD COLUMN has_attributes BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE order_state s SET has_attributes = TRUE
 WHERE EXISTS (SELECT 1 FROM order_attribute a WHERE a.order_id = s.order_id);

-- The copy: null while the order is not settled; process_state says which it is.
ALTER TABLE order_attribute
    ADD COLUMN customer_id   VARCHAR(100),
    ADD COLUMN workflow      VARCHAR(64),
    ADD COLUMN process_state VARCHAR(16),
    ADD COLUMN failure_count INT,
    ADD COLUMN last_error    VARCHAR(1000),
    ADD COLUMN paused_on     VARCHAR(64),
    ADD COLUMN updated_at    TIMESTAMP WITH TIME ZONE,
    ADD COLUMN not_before    TIMESTAMP WITH TIME ZONE,
    ADD CONSTRAINT order_attribute_settled_copy CHECK (process_state IS NULL
        OR (process_state IN ('Processed', 'Compensated') AND workflow IS NOT NULL AND failure_count IS NOT NULL
            AND updated_at IS NOT NULL));
UPDATE order_attribute a SET customer_id = o.customer_id FROM customer_order o WHERE o.order_id = a.order_id;
ALTER TABLE order_attribute ALTER COLUMN customer_id SET NOT NULL;
-- The orders already settled.
UPDATE order_attribute a SET workflow = s.workflow, process_state = s.process_state, failure_count = s.failure_count,
       last_error = s.last_error, paused_on = s.paused_on, updated_at = s.updated_at, not_before = s.not_before
  FROM order_state s
 WHERE s.order_id = a.order_id AND s.process_state IN ('Processed', 'Compensated');

-- The attribute rows of orders not settled (live, or in Error): few, however many orders have finished. A
-- state whose orders stay few (ListingSql.FEW) with an attribute reads each of its orders' attribute here by
-- key, value and customer included (an index-only lookup into a small index, not order_attribute_pkey's
-- every row); a copy leaves it, as its order settles.
CREATE INDEX order_attribute_unsettled ON order_attribute (order_id, name) INCLUDE (value, customer_id)
    WHERE process_state IS NULL;
