package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;

import io.overseer.platform.Clocks;
import io.overseer.platform.Progress;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The agents' threads: a step at a light rate runs on a thread already started, never on a new one. */
class AgentWorkersTest {

    @Test
    void stepsOneAtATimeRunOnThreadsStartedOnceNotOnANewThreadEach() throws Exception {
        AtomicInteger started = new AtomicInteger();
        AgentWorkers workers = new AgentWorkers();
        workers.concurrency = 4;
        workers.threads = new CountingFactory(started);
        workers.progress = mock(Progress.class);
        workers.clocks = mock(Clocks.class);
        org.mockito.Mockito.when(workers.clocks.now()).thenReturn(OffsetDateTime.of(2026, 11, 29, 12, 0, 0, 0, ZoneOffset.UTC));
        workers.start();
        try {
            assertEquals(4, started.get(), "the pool, started whole");
            Set<Thread> ran = ConcurrentHashMap.newKeySet();
            for (int step = 0; step < 20; step++) {
                workers.submit(request(), () -> ran.add(Thread.currentThread())).ended().get();
            }
            assertEquals(4, started.get(), "twenty steps one after another started no thread: " + started.get());
            org.junit.jupiter.api.Assertions.assertTrue(ran.size() <= 4, "they ran on the pool's threads: " + ran.size());
        } finally {
            workers.stop();
        }
    }

    private static AttemptRequest request() {
        return new AttemptRequest("o-1", 1, 0, "t", "reserve-inventory", "o-1:reserve-inventory",
                OffsetDateTime.of(2026, 11, 29, 12, 0, 30, 0, ZoneOffset.UTC), "c-1", List.of(), null, null, null);
    }

    /** The container's factory, counted: each new thread is a start the step waits for. */
    private record CountingFactory(AtomicInteger started) implements ManagedThreadFactory {
        @Override
        public Thread newThread(Runnable task) {
            started.incrementAndGet();
            Thread thread = new Thread(task, "agent-worker-test");
            thread.setDaemon(true);
            return thread;
        }

        @Override
        public java.util.concurrent.ForkJoinWorkerThread newThread(java.util.concurrent.ForkJoinPool pool) {
            throw new UnsupportedOperationException("not used by the agents");
        }
    }
}
