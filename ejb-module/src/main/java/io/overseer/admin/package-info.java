/**
 * The operators' side, outside the pattern's three actors: what the console reads (overview, listings,
 * an order with its history and remote calls, the instances), what an operator does (resubmit or cancel
 * an order, pause an operation's dispatch, redrive or delete a dead letter, create, pause, resume or remove a
 * recurring schedule), the audit log, and the overview's meters. It acts like any other writer: through the state store, then a dispatch hint.
 *
 * <p>It shows orders through the API's views and the agents' flow limits and calls as the agents define
 * them, so it reads {@code query} and {@code agent}, but never drives an actor. May import:
 * {@code platform}, {@code workflow}, {@code statestore}, {@code messaging}, {@code query}, {@code agent},
 * {@code submission} (an order's body, as a schedule holds it), {@code recurring}.
 */
package io.overseer.admin;
