package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link JobLease} itself — its parameter binding through JPA, its note, its fence's refusal — on
 * PostgreSQL with the migrations. The races of its statements are {@link JobLeaseDbTest}'s.
 */
class JobLeaseJpaDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 24, 9, 0, 0, 0, ZoneOffset.UTC);
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final AtomicInteger LEASES = new AtomicInteger();
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    private String job;

    @BeforeEach
    void newLease() throws Exception {
        job = "test-lease-" + LEASES.incrementAndGet();
        try (Connection c = DB.getTestDatabase().getConnection()) {
            NativeSql.update(c, "INSERT INTO job_lease (name, holder, expires_at) VALUES (?1, NULL, TIMESTAMPTZ '1970-01-01 00:00:00+00')", job);
        }
    }

    @Test
    void aTakeReturnsTheTenureAndALiveLeaseIsRefusedToAnotherUntilItLapses() throws Exception {
        assertEquals(Optional.of(new HeldLease(job, "a", 1)), acquire("a", T0));
        assertEquals(Optional.empty(), acquire("b", T0.plus(TTL)), "live up to and including its expiry");
        assertEquals(Optional.of(new HeldLease(job, "a", 1)), acquire("a", T0.plusSeconds(20)), "renewed: same tenure");
        assertEquals(Optional.of(new HeldLease(job, "b", 2)), acquire("b", T0.plusSeconds(51)), "lapsed: b's tenure");
        try (Connection c = DB.getTestDatabase().getConnection()) {
            assertEquals(List.of("b"), NativeSql.strings(c, "SELECT holder FROM job_lease WHERE name = ?1 AND expires_at = ?2",
                    job, T0.plusSeconds(51).plus(TTL)), "the expiry bound as a timestamp with time zone");
        }
    }

    @Test
    void theFenceLetsTheCurrentTenureWriteAndRefusesADeposedOne() throws Exception {
        HeldLease first = acquire("a", T0).orElseThrow();
        HeldLease second = acquire("b", T0.plus(TTL).plusSeconds(1)).orElseThrow();
        JobLease lease = lease();

        jpa.inTransaction(em -> {
            lease.em = em;
            lease.fence(second);
            return null;
        });
        assertThrows(LeaseLostException.class, () -> jpa.inTransaction(em -> {
            lease.em = em;
            lease.fence(first);
            return null;
        }));
        assertThrows(LeaseLostException.class, () -> jpa.inTransaction(em -> {
            lease.em = em;
            lease.fence(new HeldLease(job, "a", second.epoch()));
            return null;
        }), "the epoch is the tenure's, and the tenure is its holder's");
    }

    @Test
    void aNoteIsKeptForTheCurrentTenureOnlyAndCutTo300Characters() throws Exception {
        HeldLease first = acquire("a", T0).orElseThrow();
        note(first, T0.plusSeconds(1), "swept 3");
        assertEquals(List.of("swept 3"), lastNote());

        note(first, T0.plusSeconds(2), "x".repeat(400));
        assertEquals(List.of("x".repeat(300)), lastNote());

        HeldLease second = acquire("b", T0.plus(TTL).plusSeconds(1)).orElseThrow();
        note(first, T0.plusSeconds(40), "a deposed holder's note");
        assertEquals(List.of("x".repeat(300)), lastNote(), "dropped");
        note(second, T0.plusSeconds(41), "b's note");
        assertEquals(List.of("b's note"), lastNote());
    }

    private static JobLease lease() {
        return new JobLease();
    }

    private Optional<HeldLease> acquire(String holder, OffsetDateTime now) throws Exception {
        JobLease lease = lease();
        return jpa.inTransaction(em -> {
            lease.em = em;
            return lease.tryAcquire(job, holder, now, TTL);
        });
    }

    private void note(HeldLease held, OffsetDateTime at, String note) throws Exception {
        JobLease lease = lease();
        jpa.inTransaction(em -> {
            lease.em = em;
            lease.note(held, at, note);
            return null;
        });
    }

    private List<String> lastNote() throws Exception {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            return NativeSql.strings(c, "SELECT last_run_note FROM job_lease WHERE name = ?1", job);
        }
    }
}
