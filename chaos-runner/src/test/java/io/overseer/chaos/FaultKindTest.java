package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which faults hold beside the schedule, and which of the faults after them must wait for their heal. */
class FaultKindTest {

    @Test
    void theLinkCutsRunBesideTheScheduleAndNothingElseDoes() {
        Set<FaultKind> beside = EnumSet.noneOf(FaultKind.class);
        for (FaultKind kind : FaultKind.values()) {
            if (kind.runsBeside()) {
                beside.add(kind);
            }
        }
        assertEquals(EnumSet.of(FaultKind.APP_DB_CUT, FaultKind.APP_BROKER_CUT, FaultKind.APP_ISOLATED,
                FaultKind.BROKER_PAIR_CUT), beside, "db-primary-isolated waits for a settled cluster, as db faults do");
    }

    @Test
    void aCutHoldsBackEveryNetworkFaultAndOnlyThePairCutHoldsBackTheBrokerFaults() {
        for (FaultKind cut : FaultKind.values()) {
            if (!cut.runsBeside()) {
                continue;
            }
            for (FaultKind next : FaultKind.values()) {
                boolean brokerFault = next == FaultKind.BROKER_KILL || next == FaultKind.BROKER_PAUSE
                        || next == FaultKind.BROKER_PRIMARY;
                boolean expected = next.needsPartitions() || cut == FaultKind.BROKER_PAIR_CUT && brokerFault;
                assertEquals(expected, cut.holdsBack(next), cut + " then " + next);
            }
        }
        assertTrue(FaultKind.APP_ISOLATED.holdsBack(FaultKind.DB_PRIMARY_ISOLATED));
        assertFalse(FaultKind.APP_DB_CUT.holdsBack(FaultKind.DB_FAILOVER), "a primary killed while an instance is cut from it");
        assertFalse(FaultKind.APP_ISOLATED.holdsBack(FaultKind.APP_KILL), "an instance killed while another is cut off");
    }
}
