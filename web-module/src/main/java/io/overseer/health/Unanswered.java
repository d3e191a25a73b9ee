package io.overseer.health;

import java.time.Duration;

/**
 * Since when a probe has gone without an answer in time: from the start of the first late attempt of
 * the current streak until an attempt answers in time. Counting from an attempt's start, not from the
 * last answer, keeps a probe nobody called for an hour from looking an hour late at its next call.
 */
final class Unanswered {

    private boolean late;
    private long since;

    /** One attempt, started at {@code startedAt} (ticker nanos), answered within its bound or not. */
    synchronized void record(long startedAt, boolean inTime) {
        if (inTime) {
            late = false;
        } else if (!late) {
            late = true;
            since = startedAt;
        }
    }

    /** How long, at {@code now}, the probe has been without an answer in time; zero if it has one. */
    synchronized Duration duration(long now) {
        return late ? Duration.ofNanos(now - since) : Duration.ZERO;
    }
}
