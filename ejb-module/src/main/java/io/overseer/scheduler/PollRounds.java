package io.overseer.scheduler;

import io.overseer.platform.DatabaseReachability;
import io.overseer.platform.OneAtATime;
import io.overseer.platform.Outage;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import java.util.logging.Logger;

/**
 * One poll of a poller, as both run it: a batch of ids found, claimed ({@link BatchClaims}), and again
 * while batches come back full, up to a number of rounds so that one poll of a huge backlog ends and hands
 * the rest to the next. A poll that finds the previous one still running (a slow database outlasting the
 * timer's period) returns at once rather than claim the same rows beside it, and a failure is logged and
 * left to the next poll ({@link OneAtATime}).
 */
final class PollRounds {

    private final OneAtATime polls;
    private final Logger log;
    private final String what;
    private final int maxRounds;

    /**
     * @param what      the orders' kind in the per-order warning of {@link BatchClaims}
     * @param failure   the warning logged when a poll fails
     */
    PollRounds(Logger log, String what, int maxRounds, String failure) {
        this.log = log;
        this.what = what;
        this.maxRounds = maxRounds;
        this.polls = new OneAtATime(log, failure);
    }

    /**
     * @param find     the next batch of at most {@code batch} ids
     * @param claim    claims a batch in a transaction of its own, returning how many it claimed
     * @param database told whether the poll reached the database, for this instance's consumers
     * @return how many this poll claimed; 0 when the previous poll was still running or this one failed
     */
    int poll(IntFunction<List<String>> find, ToIntFunction<List<String>> claim, int batch, DatabaseReachability database) {
        return polls.call(() -> rounds(find, claim, batch, database), 0);
    }

    private int rounds(IntFunction<List<String>> find, ToIntFunction<List<String>> claim, int batch,
                       DatabaseReachability database) {
        try {
            int claimed = 0;
            for (int round = 0; round < maxRounds; round++) {
                List<String> ids = find.apply(batch);
                database.reached();
                if (ids.isEmpty()) {
                    break;
                }
                claimed += BatchClaims.claim(ids, claim, log, what);
                if (ids.size() < batch) {
                    break;
                }
            }
            return claimed;
        } catch (RuntimeException e) {
            if (Outage.isUnreachable(e)) {
                database.lost();
            }
            throw e; // logged as the poll's failure
        }
    }
}
