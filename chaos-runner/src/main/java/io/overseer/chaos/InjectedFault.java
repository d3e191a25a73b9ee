package io.overseer.chaos;

/**
 * A planned fault as it happened: when it began (ms after the first submission), how long until it was
 * healed (the broker or database active again, the instance resumed, the rule cleared), and whether it
 * could be injected at all, with what went wrong if not.
 */
record InjectedFault(PlannedFault planned, long startedMs, long healedAfterMs, boolean injected, String note) {
}
