package io.overseer.bench.peers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The peers Overseer is compared with, on the same PostgreSQL: db-scheduler (lock-and-fetch and its
 * default fetch) and JobRunr, N tasks each, inserted in advance, timed from start until all are done.
 * Work per task: nothing ("noop"), or one HTTP call to the remote-service simulator ("http").
 *
 * <pre>
 * PeerBench --jdbc URL --user U --password P --tasks N [--peer db-scheduler|jobrunr|all]
 *           [--simulator http://127.0.0.1:PORT] [--work noop|http|all] [--repeat 3]
 *           [--http-tasks M] [--threads 10] [--timeout-seconds 600]
 * </pre>
 * The http work runs M tasks (default: N, at most 5,000): the simulator fsyncs its ledger per call and
 * answers ≈ 150–200 calls/s on 2 cores, so 50,000 calls would take ≈ 5 min per run and mode.
 * Each run uses a fresh schema (bench_dbscheduler, bench_jobrunr), dropped afterwards: the user needs
 * CREATE on the database, and the application's tables are never touched.
 * {@code --work} defaults to noop, or all when a simulator is given. One RESULT line per peer, mode
 * and work: the median of the repetitions, every repetition listed.
 */
public final class PeerBench {

    private static final Set<String> ARGS = Set.of("jdbc", "user", "password", "tasks", "http-tasks", "peer", "simulator",
            "work", "repeat", "threads", "timeout-seconds");

    /** db-scheduler's default executor thread count (SchedulerBuilder.executorThreads), used for both modes. */
    private static final int DB_SCHEDULER_DEFAULT_THREADS = 10;

    public static void main(String[] args) {
        Cli.run("PeerBench", () -> new PeerBench().run(Cli.parse(args, ARGS)));
    }

    private void run(Cli cli) throws Exception {
        Database db = new Database(cli.required("jdbc"), cli.required("user"), cli.required("password"));
        int tasks = cli.getInt("tasks", -1);
        if (tasks <= 0) {
            throw new IllegalArgumentException("--tasks N (N > 0) is required");
        }
        String peer = cli.get("peer", "all");
        if (!Set.of("db-scheduler", "jobrunr", "all").contains(peer)) {
            throw new IllegalArgumentException("--peer must be db-scheduler, jobrunr or all");
        }
        String simulator = cli.get("simulator", null);
        String workArg = cli.get("work", simulator == null ? "noop" : "all");
        if (!Set.of("noop", "http", "all").contains(workArg)) {
            throw new IllegalArgumentException("--work must be noop, http or all");
        }
        if (!workArg.equals("noop") && simulator == null) {
            throw new IllegalArgumentException("--work " + workArg + " needs --simulator http://127.0.0.1:PORT");
        }
        int httpTasks = cli.getInt("http-tasks", Math.min(tasks, 5_000));
        if (httpTasks <= 0) {
            throw new IllegalArgumentException("--http-tasks must be positive");
        }
        int repeat = cli.getInt("repeat", 3);
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be at least 1");
        }
        int threads = cli.getInt("threads", DB_SCHEDULER_DEFAULT_THREADS);
        Duration timeout = Duration.ofSeconds(cli.getInt("timeout-seconds", 600));
        String postgres = db.serverVersion();
        Cli.log("PeerBench: PostgreSQL " + postgres + ", " + tasks + " tasks (http: " + httpTasks + "), " + repeat + " repetitions, "
                + Runtime.getRuntime().availableProcessors() + " processors");

        Trials trials = new Trials(db, simulator, repeat, timeout, postgres);
        List<String> works = workArg.equals("all") ? List.of("noop", "http") : List.of(workArg);
        for (String workName : works) {
            int n = workName.equals("http") ? httpTasks : tasks;
            if (!peer.equals("jobrunr")) {
                for (DbSchedulerRun.Polling polling : DbSchedulerRun.Polling.values()) {
                    dbScheduler(trials, polling, threads, workName, n);
                }
            }
            if (!peer.equals("db-scheduler")) {
                jobRunr(trials, workName, n);
            }
        }
    }

    /** What every peer's runs share: where, against what, how often and how long at most. */
    private record Trials(Database db, String simulator, int repeat, Duration timeout, String postgres) {
    }

    private static void dbScheduler(Trials trials, DbSchedulerRun.Polling polling, int threads, String workName, int n)
            throws Exception {
        List<RunResult> runs = new ArrayList<>();
        for (int i = 0; i < trials.repeat(); i++) {
            Work work = work(workName, trials.simulator());
            runs.add(new DbSchedulerRun(trials.db(), threads, polling, work, trials.timeout()).run(n));
            Cli.log("  db-scheduler " + polling + " " + workName + " run " + (i + 1) + ": " + describe(runs.get(i)));
        }
        String mode = polling == DbSchedulerRun.Polling.LOCK_AND_FETCH ? "lock-and-fetch" : "fetch";
        Map<String, Object> r = summary("peer.db-scheduler." + mode + "." + workName, runs, workName);
        r.put("peer", "db-scheduler");
        r.put("version", Versions.of("com.github.kagkarlsson", "db-scheduler",
                com.github.kagkarlsson.scheduler.Scheduler.class));
        r.put("polling", mode + "(0.5, 3.0)");
        r.put("threads", threads);
        r.put("postgres", trials.postgres());
        Cli.print(r);
    }

    private static void jobRunr(Trials trials, String workName, int n) throws Exception {
        List<RunResult> runs = new ArrayList<>();
        JobRunrRun jobrunr = null;
        for (int i = 0; i < trials.repeat(); i++) {
            jobrunr = new JobRunrRun(trials.db(), work(workName, trials.simulator()), trials.timeout());
            runs.add(jobrunr.run(n));
            Cli.log("  jobrunr " + workName + " run " + (i + 1) + ": " + describe(runs.get(i)));
        }
        Map<String, Object> r = summary("peer.jobrunr." + workName, runs, workName);
        r.put("peer", "jobrunr");
        r.put("version", Versions.of("org.jobrunr", "jobrunr", org.jobrunr.configuration.JobRunr.class));
        r.put("workers", jobrunr.workers());
        r.put("threadType", jobrunr.threadType());
        r.put("postgres", trials.postgres());
        Cli.print(r);
    }

    private static Work work(String name, String simulator) throws Exception {
        if (name.equals("noop")) {
            return Work.NO_OP;
        }
        SimulatorCall call = new SimulatorCall(simulator, "bench-" + UUID.randomUUID());
        call.checkReachable();
        return call;
    }

    private static Map<String, Object> summary(String name, List<RunResult> runs, String work) {
        List<Double> rates = runs.stream().map(RunResult::perSecond).toList();
        Map<String, Object> r = Cli.result(name, "tasks/s", Cli.median(rates));
        r.put("tasks", runs.get(0).tasks());
        r.put("work", work);
        r.put("repetitions", runs.size());
        r.put("seconds", Cli.round(Cli.median(runs.stream().map(RunResult::seconds).toList())));
        r.put("runs", rates.stream().map(Cli::round).toList());
        r.put("enqueueSeconds", Cli.round(Cli.median(runs.stream().map(RunResult::enqueueSeconds).toList())));
        r.put("firstExecutionSeconds", Cli.round(Cli.median(runs.stream().map(RunResult::firstExecutionSeconds).toList())));
        return r;
    }

    private static String describe(RunResult r) {
        return String.format("%d tasks in %.2f s = %.0f/s (enqueue %.2f s, first execution after %.2f s)",
                r.tasks(), r.seconds(), r.perSecond(), r.enqueueSeconds(), r.firstExecutionSeconds());
    }
}
