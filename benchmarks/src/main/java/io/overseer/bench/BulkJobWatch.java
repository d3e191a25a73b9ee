package io.overseer.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * BulkPhase's step 3, beside the new orders: follows the bulk job from the database every second until it is
 * no longer Running: how many of its orders are unfinished at once (the runner's own measure of its window),
 * and its progress. Stops, with a failure, if the job acts on nothing for 180 s.
 */
final class BulkJobWatch implements Runnable {
    private final Db db;
    final long id;
    final AtomicLong maxUnfinished = new AtomicLong();
    volatile Exception failure;

    BulkJobWatch(Db db, long id) {
        this.db = db;
        this.id = id;
    }

    @Override
    public void run() {
        try (Connection c = db.connect();
             PreparedStatement job = c.prepareStatement("SELECT state, done + skipped + failed, total FROM bulk_job WHERE id = ?");
             PreparedStatement unfinished = c.prepareStatement("""
                     SELECT count(*) FROM bulk_item i JOIN order_state s ON s.order_id = i.target
                     WHERE i.job_id = ? AND i.outcome = 'done' AND s.process_state IN ('Pending', 'Processing', 'Compensating')""")) {
            job.setLong(1, id);
            unfinished.setLong(1, id);
            long last = -1;
            long changedAt = System.currentTimeMillis();
            long reportedAt = System.currentTimeMillis();
            while (true) {
                String state;
                long acted;
                long total;
                try (ResultSet rs = job.executeQuery()) {
                    rs.next();
                    state = rs.getString(1);
                    acted = rs.getLong(2);
                    total = rs.getLong(3);
                }
                try (ResultSet rs = unfinished.executeQuery()) {
                    rs.next();
                    maxUnfinished.accumulateAndGet(rs.getLong(1), Math::max);
                }
                if (!"Running".equals(state)) {
                    Log.info("bulk job " + id + ": " + state + ", " + acted + " of " + total + " acted on");
                    return;
                }
                long now = System.currentTimeMillis();
                if (acted != last) {
                    last = acted;
                    changedAt = now;
                } else if (now - changedAt > BulkPhase.STALL_MILLIS) {
                    failure = new IllegalStateException("bulk job " + id + " acted on nothing for " + BulkPhase.STALL_MILLIS / 1000
                            + " s (" + acted + " of " + total + ")");
                    return;
                }
                if (now - reportedAt > 30_000) {
                    Log.info("bulk job " + id + ": " + acted + " of " + total + " acted on");
                    reportedAt = now;
                }
                Thread.sleep(1000);
            }
        } catch (Exception e) {
            failure = e;
        }
    }
}
