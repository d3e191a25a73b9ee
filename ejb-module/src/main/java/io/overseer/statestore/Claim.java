package io.overseer.statestore;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Who runs an attempt and until when: the pattern's LockedBy and CompleteBy, with the heartbeat deadline
 * of a step whose agent reports in. A step's claim is its running attempt's; the order's summarizes its
 * running steps' ({@link #summary}), which is what the supervisor's sweep and its indexes read. Both
 * tables keep it in columns of the same names.
 *
 * <p>Immutable: a claim is replaced, never changed. A record holds none as null (EclipseLink reads an
 * embeddable whose columns are all null as null); {@link #of} reads that as {@link #NONE}.
 */
@Embeddable
public class Claim {

    /** Nobody holds the record. */
    static final Claim NONE = new Claim();

    @Column(name = "locked_by", length = 128)
    private String lockedBy;
    @Column(name = "complete_by")
    private OffsetDateTime completeBy;
    @Column(name = "heartbeat_by")
    private OffsetDateTime heartbeatBy;

    protected Claim() {
        // for JPA, and NONE
    }

    private Claim(String lockedBy, OffsetDateTime completeBy, OffsetDateTime heartbeatBy) {
        this.lockedBy = Objects.requireNonNull(lockedBy, "a claim has a holder");
        this.completeBy = completeBy;
        this.heartbeatBy = heartbeatBy;
    }

    /** An attempt held by {@code owner}, to finish by {@code completeBy}, its agent heard from by {@code heartbeatBy} (or null). */
    static Claim held(String owner, OffsetDateTime completeBy, OffsetDateTime heartbeatBy) {
        return new Claim(owner, completeBy, heartbeatBy);
    }

    /** The stored claim, {@link #NONE} for a record that holds none. */
    static Claim of(Claim stored) {
        return stored == null ? NONE : stored;
    }

    /**
     * What the order's record says of its running attempts — one, or a parallel group's branches: who holds
     * them (one instance holds them all) and the earliest of their deadlines. Null when none runs.
     */
    static Claim summary(List<Claim> running) {
        if (running.isEmpty()) {
            return null;
        }
        return new Claim(running.get(0).lockedBy, earliest(running.stream().map(Claim::completeBy).toList()),
                earliest(running.stream().map(Claim::heartbeatBy).toList()));
    }

    private static OffsetDateTime earliest(List<OffsetDateTime> times) {
        return times.stream().filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
    }

    boolean isHeld() {
        return lockedBy != null;
    }

    /** Whether the complete-by has passed, or the heartbeat was missed. */
    boolean isExpired(OffsetDateTime now) {
        return isHeld() && (completeBy != null && completeBy.isBefore(now) || heartbeatBy != null && heartbeatBy.isBefore(now));
    }

    /** Why the attempt expired, for the history: its deadline, or its agent's silence. */
    String expiryCause(OffsetDateTime now) {
        return completeBy != null && completeBy.isBefore(now) ? "complete-by passed" : "heartbeat missed";
    }

    String lockedBy() {
        return lockedBy;
    }

    OffsetDateTime completeBy() {
        return completeBy;
    }

    OffsetDateTime heartbeatBy() {
        return heartbeatBy;
    }
}
