/**
 * The API's read model: lock-free snapshots of orders and their history, in the shape the HTTP API
 * returns them as JSON ({@link io.overseer.query.OrderView}, {@link io.overseer.query.OrderSummary},
 * {@link io.overseer.query.HistoryView}), and {@link io.overseer.query.OrderQueries}, which builds them.
 *
 * <p>Why a package of its own: the views are the API's, but the console's queries in {@code admin}
 * return them too, and ejb-module cannot see web-module's {@code io.overseer.api}; in {@code statestore}
 * they would make the state store, the pattern's write side, know the API's JSON. So they read from the
 * state store, never the other way round. May import: {@code platform}, {@code workflow},
 * {@code statestore}.
 */
package io.overseer.query;
