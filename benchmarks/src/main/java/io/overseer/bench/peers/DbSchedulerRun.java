package io.overseer.bench.peers;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * db-scheduler: N one-time tasks inserted in advance with scheduleBatch, all due now; then the clock
 * runs from {@code scheduler.start()} until the last execution is done and its row deleted (a one-time
 * task's row is removed when it completes, so an empty table means every execution committed).
 */
final class DbSchedulerRun {

    /** The table from db-scheduler's own postgresql_tables.sql (v16.12.0), verbatim apart from layout. */
    static final String[] SCHEMA = {
        """
        create table scheduled_tasks (
          task_name text not null,
          task_instance text not null,
          task_data bytea,
          execution_time timestamp with time zone not null,
          picked BOOLEAN not null,
          picked_by text,
          last_success timestamp with time zone,
          last_failure timestamp with time zone,
          consecutive_failures INT,
          last_heartbeat timestamp with time zone,
          version BIGINT not null,
          priority SMALLINT,
          PRIMARY KEY (task_name, task_instance)
        )""",
        "CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time)",
        "CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat)",
        "CREATE INDEX priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc)"
    };

    enum Polling { LOCK_AND_FETCH, FETCH }

    private final Database db;
    private final int threads;
    private final Polling polling;
    private final Work work;
    private final Duration timeout;

    DbSchedulerRun(Database db, int threads, Polling polling, Work work, Duration timeout) {
        this.db = db;
        this.threads = threads;
        this.polling = polling;
        this.work = work;
        this.timeout = timeout;
    }

    RunResult run(int tasks) throws Exception {
        String schema = "bench_dbscheduler";
        db.recreateSchema(schema);
        // One connection per executor thread plus the scheduler's own (fetch, heartbeats, housekeeping).
        try (HikariDataSource ds = db.pool(schema, threads + 4)) {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                for (String ddl : SCHEMA) {
                    s.execute(ddl);
                }
            }
            CountDownLatch done = new CountDownLatch(tasks);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong firstExecution = new AtomicLong();
            OneTimeTask<Void> task = Tasks.oneTime("bench-task").execute((instance, ctx) -> {
                firstExecution.compareAndSet(0, System.nanoTime());
                try {
                    work.perform(instance.getId());
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                    throw new IllegalStateException(e);
                }
                done.countDown();
            });
            Scheduler scheduler = scheduler(ds, task);

            long e0 = System.nanoTime();
            Stream<TaskInstance<?>> instances = IntStream.range(0, tasks).mapToObj(i -> task.instance("t" + i));
            scheduler.scheduleBatch(instances, Instant.now());
            double enqueueSeconds = (System.nanoTime() - e0) / 1e9;
            if (count(ds) != tasks) {
                throw new IllegalStateException("scheduleBatch stored " + count(ds) + " of " + tasks + " tasks");
            }

            long t0 = System.nanoTime();
            scheduler.start();
            try {
                awaitDone(ds, tasks, done, failure, t0 + timeout.toNanos());
                long t1 = System.nanoTime();
                return new RunResult(tasks, (t1 - t0) / 1e9, enqueueSeconds, (firstExecution.get() - t0) / 1e9);
            } finally {
                scheduler.stop();
            }
        } finally {
            db.dropSchema(schema);
        }
    }

    private Scheduler scheduler(HikariDataSource ds, OneTimeTask<Void> task) {
        var builder = Scheduler.create(ds, task).threads(threads);
        // Same fractions for both strategies (db-scheduler's fetch defaults 0.5 and 3.0), so both
        // fetch up to 3 × threads executions at a time and only the locking differs.
        builder = polling == Polling.LOCK_AND_FETCH ? builder.pollUsingLockAndFetch(0.5, 3.0)
                : builder.pollUsingFetch(0.5, 3.0);
        return builder.build();
    }

    /** Waits until every task has run and its row is gone, failing on a task's failure or at the deadline. */
    private void awaitDone(HikariDataSource ds, int tasks, CountDownLatch done, AtomicReference<Throwable> failure,
                           long deadline) throws Exception {
        while (!done.await(200, TimeUnit.MILLISECONDS)) {
            checkFailure(failure);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("db-scheduler executed " + (tasks - done.getCount())
                        + " of " + tasks + " tasks within " + timeout.toSeconds() + " s");
            }
        }
        // The last executions are counted before their rows are deleted: wait for the deletes.
        while (count(ds) > 0) {
            checkFailure(failure);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(count(ds) + " rows left in scheduled_tasks after "
                        + timeout.toSeconds() + " s");
            }
            Thread.sleep(5);
        }
    }

    private static void checkFailure(AtomicReference<Throwable> failure) {
        if (failure.get() != null) {
            throw new IllegalStateException("A task failed: " + failure.get(), failure.get());
        }
    }

    private static long count(HikariDataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM scheduled_tasks")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
