/**
 * The Supervisor of the pattern: a timer, on the one instance holding its lease, that finds steps whose
 * complete-by has passed (an agent died, a message was lost) and recovers each in its own transaction —
 * retry after a backoff, compensate, or give up with an alert — as the step's
 * {@link io.overseer.supervisor.RecoveryPolicy} says.
 *
 * <p>It hands recovered work back to the schedulers through the order queue ({@code messaging}'s
 * dispatch hint), never by calling a scheduler. May import: {@code platform}, {@code workflow},
 * {@code statestore}, {@code messaging}, {@code notification}.
 */
package io.overseer.supervisor;
