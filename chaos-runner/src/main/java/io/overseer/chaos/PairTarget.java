package io.overseer.chaos;

/**
 * What the broker faults do to the replicated pair of {@code --broker-ha}, and when the pair may take the
 * next one. The runner never strikes the pair while it is healing: killing the other node while a resync
 * is under way is the trap of docs/broker-ha.md ("Restart order") in which the only complete journal is
 * lost or the launcher must refuse. So a broker fault waits until the pair is {@link #settled}: the primary
 * serving, the backup running, passive and in sync with it; and it is not over until the pair is settled
 * again.
 */
enum PairTarget {
    /** broker-primary: the primary, active when the pair is settled; the backup takes over, then fails back. */
    PRIMARY,
    /**
     * broker-kill: the passive backup. Killing the active node is broker-primary's fault already; the
     * backup's death is the other one a pair suffers (the primary goes on alone, then resends the whole
     * journal to the restarted backup).
     */
    BACKUP,
    /**
     * broker-pause: the active node (the primary, once settled) for 2-7 s, far below the replication
     * connection's TTL, so the backup does not take over (that would be the split brain of docs/broker-ha.md).
     */
    ACTIVE;

    static PairTarget of(FaultKind kind) {
        return switch (kind) {
            case BROKER_PRIMARY -> PRIMARY;
            case BROKER_KILL -> BACKUP;
            case BROKER_PAUSE -> ACTIVE;
            default -> throw new IllegalArgumentException(kind + " is not a broker fault");
        };
    }

    /** What the pair looks like from outside: processes, open acceptors, the backup's log. */
    record Pair(boolean primaryAlive, boolean primaryServes, boolean backupAlive, boolean backupServes,
                String backupLogTail) {

        /**
         * Ready for the next broker fault: the primary serves, the backup runs without serving (passive,
         * not a split brain) and its log says it is in sync since it last (re)started.
         */
        boolean settled() {
            return primaryAlive && primaryServes && backupAlive && !backupServes && backupInSync(backupLogTail);
        }

        String describe() {
            return "primary " + (primaryAlive ? primaryServes ? "serving" : "running, not serving" : "down")
                    + ", backup " + (backupAlive ? backupServes ? "serving" : backupInSync(backupLogTail)
                    ? "passive, in sync" : "passive, not in sync" : "down");
        }
    }

    /** Artemis (2.56) log codes of a backup (re)starting or activating: it is not, or no longer, a replica in sync. */
    static final String[] BACKUP_RESTARTS = {
        "AMQ221000", // message broker is starting
        "AMQ221109", // backup server started; waiting for primary
        "AMQ221037", // ... to become 'active' (took over)
        "AMQ221039", // restarting as replicating backup server after primary restart (failback)
    };
    /** "Backup server … is synchronized with primary server". */
    static final String BACKUP_IN_SYNC = "AMQ221024";

    /** Whether the backup's last word since its last (re)start or activation is that it is in sync. */
    static boolean backupInSync(String logTail) {
        if (logTail == null) {
            return false;
        }
        int synced = logTail.lastIndexOf(BACKUP_IN_SYNC);
        if (synced < 0) {
            return false;
        }
        for (String code : BACKUP_RESTARTS) {
            if (logTail.lastIndexOf(code) > synced) {
                return false;
            }
        }
        return true;
    }
}
