/**
 * The State Store of the pattern: an order ({@link io.overseer.statestore.CustomerOrder}), its task and
 * step records ({@link io.overseer.statestore.OrderState}, {@link io.overseer.statestore.StepState},
 * entities that own their state machine), their history, and {@link io.overseer.statestore.StateStore},
 * which locks, claims and moves them in the caller's transaction. PostgreSQL is the only transactional
 * truth; everything else is a hint.
 *
 * <p>It knows the workflow definitions its records follow, not who drives them: actors call it, and those
 * that react to a committed transition observe its {@link io.overseer.statestore.OrderTransitions} event.
 * The API's views of these records are in {@code io.overseer.query}. May import: {@code platform},
 * {@code workflow}.
 */
package io.overseer.statestore;
