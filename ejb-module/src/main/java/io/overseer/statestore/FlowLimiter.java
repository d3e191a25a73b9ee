package io.overseer.statestore;

import java.time.OffsetDateTime;

/**
 * Flow limits as the state machine sees them: before an attempt calling a limited operation starts, the
 * limiter counts it — or says when to try again. Implemented over PostgreSQL in the scheduler's
 * transaction ({@code io.overseer.scheduler.FlowGate}).
 */
public interface FlowLimiter {

    /** No operation is limited. */
    FlowLimiter NONE = new FlowLimiter() {
        @Override
        public boolean limits(String operation) {
            return false;
        }

        @Override
        public OffsetDateTime admit(String operation, OffsetDateTime now) {
            return null;
        }
    };

    /** Whether {@code operation} has a flow limit (its running attempts are counted). */
    boolean limits(String operation);

    /**
     * Null if an attempt calling {@code operation} may start now — it is then counted against the limits
     * — else the instant to try again.
     */
    OffsetDateTime admit(String operation, OffsetDateTime now);
}
