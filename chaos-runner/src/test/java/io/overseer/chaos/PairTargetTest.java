package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which node each broker fault strikes under --broker-ha, and when the pair may take the next one. */
class PairTargetTest {

    /** Lines of a backup's log (Artemis 2.56) in the order a failover and a failback write them. */
    private static final String STARTED = "AMQ221000: Backup message broker is starting with configuration …\n"
            + "AMQ221109: Apache Artemis Backup Server version 2.56.0 [null] started; waiting for primary to fail\n";
    private static final String SYNCED = "AMQ221024: Backup server ActiveMQServerImpl::name=overseer-broker is"
            + " synchronized with primary server, nodeID=…\n";
    private static final String TOOK_OVER = "AMQ221037: ActiveMQServerImpl::name=overseer-broker to become 'active'\n";
    private static final String FAILED_BACK = "AMQ221039: Restarting as replicating backup server after primary restart\n";

    @Test
    void eachBrokerFaultHasItsTargetAndNoOtherKindHasOne() {
        assertEquals(PairTarget.PRIMARY, PairTarget.of(FaultKind.BROKER_PRIMARY));
        assertEquals(PairTarget.BACKUP, PairTarget.of(FaultKind.BROKER_KILL));
        assertEquals(PairTarget.ACTIVE, PairTarget.of(FaultKind.BROKER_PAUSE));
        for (FaultKind kind : FaultKind.values()) {
            if (!kind.wireName().startsWith("broker-")) {
                assertThrows(IllegalArgumentException.class, () -> PairTarget.of(kind));
            }
        }
    }

    @Test
    void theBackupIsInSyncOnlyWhenItSaidSoSinceItLastStartedOrTookOver() {
        assertFalse(PairTarget.backupInSync(""));
        assertFalse(PairTarget.backupInSync(null));
        assertFalse(PairTarget.backupInSync(STARTED), "started, still syncing");
        assertTrue(PairTarget.backupInSync(STARTED + SYNCED));
        assertFalse(PairTarget.backupInSync(STARTED + SYNCED + TOOK_OVER), "took over: active, no replica");
        assertFalse(PairTarget.backupInSync(STARTED + SYNCED + TOOK_OVER + FAILED_BACK + STARTED),
                "failed back, resyncing from the restarted primary");
        assertTrue(PairTarget.backupInSync(STARTED + SYNCED + TOOK_OVER + FAILED_BACK + STARTED + SYNCED));
        assertFalse(PairTarget.backupInSync(STARTED + SYNCED + STARTED), "killed and restarted by the watch");
    }

    @Test
    void thePairIsSettledOnlyWithThePrimaryServingAndAPassiveBackupInSync() {
        String synced = STARTED + SYNCED;
        assertTrue(new PairTarget.Pair(true, true, true, false, synced).settled());
        assertFalse(new PairTarget.Pair(false, false, true, true, synced + TOOK_OVER).settled(), "failed over");
        assertFalse(new PairTarget.Pair(true, false, true, true, synced + TOOK_OVER).settled(),
                "primary restarted, syncing from the backup");
        assertFalse(new PairTarget.Pair(true, true, true, false, synced + TOOK_OVER + FAILED_BACK + STARTED).settled(),
                "failed back, backup resyncing: killing the primary now is the trap");
        assertFalse(new PairTarget.Pair(true, true, false, false, synced).settled(), "backup dead");
        assertFalse(new PairTarget.Pair(true, true, true, true, synced).settled(), "split brain");
        assertEquals("primary serving, backup passive, in sync",
                new PairTarget.Pair(true, true, true, false, synced).describe());
        assertEquals("primary down, backup serving",
                new PairTarget.Pair(false, false, true, true, synced + TOOK_OVER).describe());
    }

    /**
     * Seed 11's smoke run: the backup killed, restarted by the watch, and taken as settled 2.6 s later on the
     * in-sync line of its previous life (the new JVM had written nothing yet). Only lines since the kill count.
     */
    @Test
    void afterAKillOnlyAnInSyncLineWrittenSinceTheKillCounts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path log = dir.resolve("artemis-backup.log");
        java.nio.file.Files.writeString(log, STARTED + SYNCED);
        long atKill = java.nio.file.Files.size(log);
        assertTrue(PairTarget.backupInSync(ChaosStack.tail(log, 0, 1 << 20)));
        assertFalse(PairTarget.backupInSync(ChaosStack.tail(log, atKill, 1 << 20)), "nothing written since the kill");
        java.nio.file.Files.writeString(log, STARTED, java.nio.file.StandardOpenOption.APPEND);
        assertFalse(PairTarget.backupInSync(ChaosStack.tail(log, atKill, 1 << 20)), "restarted, syncing");
        java.nio.file.Files.writeString(log, SYNCED, java.nio.file.StandardOpenOption.APPEND);
        assertTrue(PairTarget.backupInSync(ChaosStack.tail(log, atKill, 1 << 20)));
        assertEquals("", ChaosStack.tail(dir.resolve("missing.log"), 0, 100));
    }

    @Test
    void theRunnersClientsUseTheBrokerOrThePairsUrlList() {
        assertEquals("tcp://127.0.0.1:30001?a=1&b=2", ChaosStack.brokerUrl("127.0.0.1", 30001, false, "a=1&b=2"));
        assertEquals("(tcp://127.0.0.1:30001,tcp://127.0.0.1:30002)?" + JmsSubmitter.URL_PARAMETERS,
                ChaosStack.brokerUrl("127.0.0.1", 30001, true, JmsSubmitter.URL_PARAMETERS));
        assertEquals("(tcp://127.0.0.1:30001,tcp://127.0.0.1:30002)", ChaosStack.brokerUrl("127.0.0.1", 30001, true, ""));
    }
}
