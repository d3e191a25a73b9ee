-- Issue 29: a filter on one business attribute stays fast at a million orders. V18's lookup index
-- (name, value, order_id) found an attribute's orders but not in the listing's order (created_at, order_id):
-- a common value (a region: 125,000 of 1,000,000 orders) was either read whole and sorted for one page, or
-- found by walking every order in the listing's order and probing each one's attributes (eight probes per
-- match for a value one order in eight carries). Each attribute row now carries its order's created_at
-- (customer_order.created_at, which order_state.created_at equals: both are the submission's instant), and
-- the listing index holds one attribute's orders in the listing's order: a page is one index range, whatever
-- the value's share of the orders and however many orders there are. It replaces the lookup index, whose
-- every use it serves.
ALTER TABLE order_attribute ADD COLUMN created_at TIMESTAMP WITH TIME ZONE;
UPDATE order_attribute a SET created_at = o.created_at FROM customer_order o WHERE o.order_id = a.order_id;
ALTER TABLE order_attribute ALTER COLUMN created_at SET NOT NULL;
CREATE INDEX order_attribute_listing ON order_attribute (name, value, created_at, order_id);
DROP INDEX order_attribute_lookup;
