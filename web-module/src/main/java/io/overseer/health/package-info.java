/**
 * MicroProfile Health for this instance: liveness (its own workers get anywhere, as
 * {@code platform}'s progress heartbeats say) and readiness (the database and the broker answer, the
 * shutdown has not begun), each bounded in time, registered with the health-probes library
 * ({@code io.overseer.health.probes}, a module of its own so that every server finds the probes).
 *
 * <p>Outside the pattern; it only asks whether the infrastructure answers. May import: {@code platform},
 * {@code messaging}.
 */
package io.overseer.health;
