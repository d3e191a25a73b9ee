package io.overseer.bench.peers;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The job JobRunr runs. JobRunr stores a job as class + static method + arguments and calls it by
 * reflection, so what it does for this run (no-op or HTTP call) is held in a static field.
 */
public final class JobRunrJobs {

    static final AtomicInteger executed = new AtomicInteger();
    static final AtomicLong firstExecution = new AtomicLong();
    private static final AtomicReference<Throwable> failure = new AtomicReference<>();
    private static volatile Work work = Work.NO_OP;

    private JobRunrJobs() {
    }

    static void reset(Work newWork) {
        work = newWork;
        executed.set(0);
        firstExecution.set(0);
        failure.set(null);
    }

    public static void perform(String id) throws Exception {
        firstExecution.compareAndSet(0, System.nanoTime());
        try {
            work.perform(id);
        } catch (Exception e) {
            failure.compareAndSet(null, e);
            throw e;
        }
        executed.incrementAndGet();
    }

    static void checkFailure() {
        Throwable t = failure.get();
        if (t != null) {
            throw new IllegalStateException("A job failed: " + t, t);
        }
    }
}
