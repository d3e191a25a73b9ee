package io.overseer.recurring;

/**
 * What a tick does while the order of the schedule's previous tick is still unfinished: {@link #SKIP} it
 * (default), {@link #BUFFER_ONE} keep it and submit it once that order finishes (one at most: later ticks
 * are skipped meanwhile), or {@link #ALLOW} submit it at once. Under SKIP and BUFFER_ONE, at most one of the
 * schedule's orders is unfinished at any time, missed ticks being caught up included.
 */
public enum Overlap { SKIP, BUFFER_ONE, ALLOW }
