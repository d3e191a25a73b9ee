-- Business attributes (issue 29): a small map a submission may carry (a region, a channel, a merchant, a batch
-- id), written once with the order, shown with it and filtered on. One row per attribute; the lookup index
-- serves a filter on one name and value at any table size (an index range, never a scan of the orders).
CREATE TABLE order_attribute (
    order_id VARCHAR(36)  NOT NULL REFERENCES customer_order (order_id),
    name     VARCHAR(40)  NOT NULL,
    value    VARCHAR(100) NOT NULL,
    PRIMARY KEY (order_id, name)
);
CREATE INDEX order_attribute_lookup ON order_attribute (name, value, order_id);
