package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClaimTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    @Test
    void aRecordThatHoldsNoneReadsAsNone() {
        assertSame(Claim.NONE, Claim.of(null));
        assertFalse(Claim.NONE.isHeld());
        assertFalse(Claim.NONE.isExpired(T0.plusYears(1)), "nothing held, nothing expires");
    }

    @Test
    void anAttemptExpiresAtItsDeadlineOrWhenItsAgentFallsSilent() {
        Claim plain = Claim.held("node-a", T0.plusSeconds(30), null);
        assertFalse(plain.isExpired(T0.plusSeconds(30)), "not at the deadline itself");
        assertTrue(plain.isExpired(T0.plusSeconds(31)));
        assertEquals("complete-by passed", plain.expiryCause(T0.plusSeconds(31)));

        Claim beating = Claim.held("node-a", T0.plusSeconds(300), T0.plusSeconds(10));
        assertTrue(beating.isExpired(T0.plusSeconds(11)));
        assertEquals("heartbeat missed", beating.expiryCause(T0.plusSeconds(11)));
    }

    @Test
    void theOrdersClaimSummarizesItsBranchesByTheirEarliestDeadlines() {
        Claim summary = Claim.summary(List.of(
                Claim.held("node-a", T0.plusSeconds(60), null),
                Claim.held("node-a", T0.plusSeconds(20), T0.plusSeconds(40)),
                Claim.held("node-a", T0.plusSeconds(90), T0.plusSeconds(15))));
        assertEquals("node-a", summary.lockedBy());
        assertEquals(T0.plusSeconds(20), summary.completeBy());
        assertEquals(T0.plusSeconds(15), summary.heartbeatBy());
        assertNull(Claim.summary(List.of()), "nothing runs: the record holds no claim");
    }
}
