/**
 * Recurring schedules: orders submitted by a cron expression or a fixed interval (issue 43). This package
 * holds, so far, the rules a schedule's ticks follow, as pure logic over an injected "now": when ticks fall
 * ({@link io.overseer.recurring.Recurrence}: a {@link io.overseer.recurring.Cadence} in a time zone, with an
 * explicit {@link io.overseer.recurring.DaylightSaving} policy), and which of the ticks that came due an
 * order is submitted for ({@link io.overseer.recurring.TickPlanner}: the missed-tick, overlap and jitter
 * policies). The schedules' table, the job that fires due ticks exactly once across instances, and the API
 * build on it.
 *
 * <p>May import nothing of the application.
 */
package io.overseer.recurring;
