/**
 * Recurring schedules: orders submitted by a cron expression or a fixed interval (issue 43). This package
 * holds, so far, the rules a schedule's ticks follow, as pure logic over an injected "now": when ticks fall
 * ({@link io.overseer.recurring.Recurrence}: a {@link io.overseer.recurring.Cadence} in a time zone, with an
 * explicit {@link io.overseer.recurring.DaylightSaving} policy), and which of the ticks that came due an
 * order is submitted for ({@link io.overseer.recurring.TickPlanner}: the missed-tick, overlap and jitter
 * policies). The schedules' rows ({@link io.overseer.recurring.ScheduleRecord}, the table {@code schedule})
 * hold each schedule's position between ticks, and {@link io.overseer.recurring.ScheduleTicks} fires due
 * ticks on every instance, exactly once across them: a tick's order is submitted through
 * {@link io.overseer.submission.OrderSubmission} in the transaction that moves its schedule on, keyed by the
 * schedule and the tick. Schedules are submitters: they sit beside the other doors, above the scheduler.
 *
 * <p>A schedule that stops itself (its order refused, or too many of its orders in Error in a row) raises an
 * operator alert. May import {@code platform}, {@code messaging}, {@code submission}, {@code notification}.
 */
package io.overseer.recurring;
