package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.OffsetDateTime;

/**
 * What a record waits for before a scheduler may claim it: an instant ({@code notBefore}: a delayed start,
 * a retry's backoff, a flow limit's next slot, a branch due again), a paused operation it is parked on
 * ({@code pausedOn}, see {@link PausedDispatch}), and the operation whose flow limit holds it
 * ({@code throttledOn}). The order's record keeps them in columns of the same names, which the pollers'
 * and the unpark statements of {@link StateStore} read and write.
 *
 * <p>Immutable, as {@link Claim}: each move returns the new state, and the record stores none as null
 * (EclipseLink reads an embeddable whose columns are all null as null; {@link #of} reads that as
 * {@link #NONE}). The moves are named after what happened, so that the record's transitions say why
 * it waits rather than which column they set.
 */
@Embeddable
public class Waiting {

    /** Nothing holds the record. */
    static final Waiting NONE = new Waiting();

    @Column(name = "not_before")
    private OffsetDateTime notBefore;
    /** The operation this record waits for while an operator has paused it; null when not parked. */
    @Column(name = "paused_on", length = 64)
    private String pausedOn;
    /** The operation whose flow limit this waiting record waits for; null when none holds it. */
    @Column(name = "throttled_on", length = 64)
    private String throttledOn;

    protected Waiting() {
        // for JPA, and NONE
    }

    private Waiting(OffsetDateTime notBefore, String pausedOn, String throttledOn) {
        this.notBefore = notBefore;
        this.pausedOn = pausedOn;
        this.throttledOn = throttledOn;
    }

    /** The stored state, {@link #NONE} for a record that waits for nothing. */
    static Waiting of(Waiting stored) {
        return stored == null ? NONE : stored;
    }

    /** Branches held while others run: parked on {@code parkedOn}, or limited on {@code limitedOn}, claimable at {@code at}. */
    static Waiting held(String parkedOn, String limitedOn, OffsetDateTime at) {
        return new Waiting(at, parkedOn, limitedOn);
    }

    /** Waits for nothing any more: no pause, no limit, no instant. */
    Waiting clear() {
        return NONE;
    }

    /** Claimable from {@code at} (null: at once), whatever it was before; the pause and the limit stay. */
    Waiting until(OffsetDateTime at) {
        return new Waiting(at, pausedOn, throttledOn);
    }

    /** Something is due at {@code at} (null: nothing more): claimable at the earliest of what is due. */
    Waiting due(OffsetDateTime at) {
        return until(earliest(notBefore, at));
    }

    /** The earlier of two instants, either of which may be null (nothing to wait for). */
    static OffsetDateTime earliest(OffsetDateTime a, OffsetDateTime b) {
        return a == null || b != null && b.isBefore(a) ? b : a;
    }

    /** Parked on the paused {@code operation}: no instant, so no wait of it ever counts as a failure. */
    Waiting park(String operation) {
        return new Waiting(null, operation, throttledOn);
    }

    /** No pause holds it: the next claim checks the pauses again. */
    Waiting unpark() {
        return new Waiting(notBefore, null, throttledOn);
    }

    /** Over {@code operation}'s flow limit until {@code at}. */
    Waiting throttle(String operation, OffsetDateTime at) {
        return new Waiting(at, pausedOn, operation);
    }

    /** An attempt started: no limit holds it, and no instant is left to wait for. */
    Waiting started() {
        return new Waiting(null, pausedOn, null);
    }

    /** An instant that has passed is no longer waited for. */
    Waiting lapse(OffsetDateTime now) {
        return notBefore != null && notBefore.isAfter(now) ? this : until(null);
    }

    OffsetDateTime notBefore() {
        return notBefore;
    }

    /** Whether its instant is still to come. */
    boolean isLater(OffsetDateTime now) {
        return notBefore != null && notBefore.isAfter(now);
    }

    String pausedOn() {
        return pausedOn;
    }

    /** What the record stores: null when it waits for nothing (see the class comment). */
    Waiting stored() {
        return notBefore == null && pausedOn == null && throttledOn == null ? null : this;
    }

    String throttledOn() {
        return throttledOn;
    }
}
