package io.overseer.bench.peers;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.stream.IntStream;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.configuration.JobRunrConfiguration.JobRunrConfigurationResult;
import org.jobrunr.jobs.states.StateName;
import org.jobrunr.scheduling.BackgroundJob;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.server.configuration.BackgroundJobServerThreadType;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;

/**
 * JobRunr: N background jobs enqueued in advance (the Stream overload, which saves them in batches)
 * with the server not yet started; then the clock runs from starting the BackgroundJobServer until the
 * storage counts N jobs SUCCEEDED. Worker count and poll interval are JobRunr's defaults.
 */
final class JobRunrRun {

    private final Database db;
    private final Work work;
    private final Duration timeout;
    private int workers;
    private String threadTypeName;

    JobRunrRun(Database db, Work work, Duration timeout) {
        this.db = db;
        this.work = work;
        this.timeout = timeout;
    }

    /** The default worker count of the server that ran (JobRunr: 8 × available processors on Java 17). */
    int workers() {
        return workers;
    }

    String threadType() {
        return threadTypeName;
    }

    RunResult run(int tasks) throws Exception {
        String schema = "bench_jobrunr";
        db.recreateSchema(schema);
        BackgroundJobServerConfiguration serverConfig =
                BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration();
        // The standard configuration's worker policy uses exactly this figure.
        BackgroundJobServerThreadType threadType = BackgroundJobServerThreadType.getDefaultThreadType();
        workers = threadType.getDefaultWorkerCount();
        threadTypeName = threadType.name();
        // One connection per worker (each saves its job's state) plus the server's own tasks.
        try (HikariDataSource ds = db.pool(schema, workers + 4)) {
            // The constructor creates JobRunr's tables (its own migrations) in the pool's schema.
            PostgresStorageProvider storage = new PostgresStorageProvider(ds);
            JobRunrJobs.reset(work);
            JobRunrConfigurationResult jobrunr = JobRunr.configure()
                    .useStorageProvider(storage)
                    .useBackgroundJobServer(serverConfig, false)
                    .initialize();
            BackgroundJobServer server = jobrunr.getBackgroundJobServer();
            try {
                long e0 = System.nanoTime();
                BackgroundJob.enqueue(IntStream.range(0, tasks).mapToObj(i -> "t" + i),
                        id -> JobRunrJobs.perform(id));
                double enqueueSeconds = (System.nanoTime() - e0) / 1e9;
                long enqueued = storage.countJobs(StateName.ENQUEUED);
                if (enqueued != tasks) {
                    throw new IllegalStateException("JobRunr stored " + enqueued + " of " + tasks + " jobs");
                }

                long t0 = System.nanoTime();
                server.start();
                long deadline = t0 + timeout.toNanos();
                while (JobRunrJobs.executed.get() < tasks) {
                    JobRunrJobs.checkFailure();
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("JobRunr executed " + JobRunrJobs.executed.get() + " of "
                                + tasks + " jobs within " + timeout.toSeconds() + " s");
                    }
                    Thread.sleep(100);
                }
                // Executed is not yet succeeded: wait until the storage says so for every job.
                while (storage.countJobs(StateName.SUCCEEDED) < tasks) {
                    JobRunrJobs.checkFailure();
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("JobRunr: only " + storage.countJobs(StateName.SUCCEEDED)
                                + " of " + tasks + " jobs SUCCEEDED within " + timeout.toSeconds() + " s");
                    }
                    Thread.sleep(5);
                }
                long t1 = System.nanoTime();
                return new RunResult(tasks, (t1 - t0) / 1e9, enqueueSeconds,
                        (JobRunrJobs.firstExecution.get() - t0) / 1e9);
            } finally {
                server.stop();
                JobRunr.destroy();
            }
        } finally {
            db.dropSchema(schema);
        }
    }
}
