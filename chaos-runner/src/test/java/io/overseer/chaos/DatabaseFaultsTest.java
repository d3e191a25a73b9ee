package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The cluster is settled only when the primary itself sees the standby streaming in sync. */
class DatabaseFaultsTest {

    /** A primary's GET /patroni as Patroni 3.0.2 answered in a --db-ha run (trimmed). */
    private static String primary(String state, String syncState) {
        return """
                {"state": "running", "role": "master", "server_version": 150018, "xlog": {"location": 86653344},
                 "timeline": 5, "replication": [{"usename": "replicator", "application_name": "pg2",
                 "client_addr": "127.0.0.1", "state": "%s", "sync_state": "%s", "sync_priority": 1}],
                 "patroni": {"version": "3.0.2", "scope": "overseer"}}
                """.formatted(state, syncState);
    }

    @Test
    void aStandbyIsInSyncWhenThePrimaryListsItStreamingAndSynchronous() {
        assertTrue(DatabaseFaults.streamsInSync(primary("streaming", "sync"), "pg2"));
        assertFalse(DatabaseFaults.streamsInSync(primary("streaming", "sync"), "pg1"));
    }

    @Test
    void aStandbyCatchingUpOrAsynchronousOrAbsentIsNotInSync() {
        assertFalse(DatabaseFaults.streamsInSync(primary("catchup", "sync"), "pg2"));
        assertFalse(DatabaseFaults.streamsInSync(primary("streaming", "async"), "pg2"));
        // A primary whose PostgreSQL has just restarted: no replication connection yet.
        assertFalse(DatabaseFaults.streamsInSync("{\"state\": \"running\", \"role\": \"master\"}", "pg2"));
        assertFalse(DatabaseFaults.streamsInSync("not json", "pg2"));
    }
}
