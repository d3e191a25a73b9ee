package io.overseer.agent;

import io.overseer.platform.Clocks;
import io.overseer.platform.Heartbeat;
import io.overseer.platform.Progress;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The threads on which agents run their attempts: a batch delivered in one message is worked in
 * parallel, up to {@code overseer.agent.concurrency} calls at once on this instance (the bound a remote
 * service sees from each instance). Container-managed threads, so coded agents can use CDI and JNDI.
 * No transaction is held on them: an attempt may wait on a remote service up to its complete-by.
 * Each attempt under way is watched by liveness ({@link Progress}) from the moment a worker takes it:
 * one that runs far past its complete-by holds a worker that only a restart gets back.
 */
@ApplicationScoped
public class AgentWorkers {

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;
    @Inject
    @ConfigProperty(name = "overseer.agent.concurrency", defaultValue = "64")
    int concurrency;
    @Inject
    Progress progress;
    @Inject
    Clocks clocks;

    private ExecutorService executor;

    /**
     * Every worker started at once and kept. A pool below its core size starts a new thread for each task,
     * even while started ones wait idle; with the core threads timing out after a minute, a stack at a light
     * rate never kept a full pool and started a thread (a container-managed one) for nearly every step:
     * 0.8 ms of a lone order's step, measured (docs/benchmarks-history.md). Parked, the threads cost no CPU
     * and little memory.
     */
    @PostConstruct
    void start() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(concurrency, concurrency, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads);
        pool.prestartAllCoreThreads();
        executor = pool;
    }

    /**
     * Queues an attempt for the next free worker. The handle says when a worker took it as well as when it
     * ended: the delivery that brought it waits for the first at least ({@link DeliveryHold}).
     */
    public Handed submit(AttemptRequest request, Runnable attempt) {
        CompletableFuture<Void> taken = new CompletableFuture<>();
        Future<?> ended = executor.submit(() -> {
            taken.complete(null);
            Duration allowance = Duration.between(clocks.now(), request.completeBy());
            Heartbeat heartbeat = progress.watch("agent attempt " + request.orderId() + " " + request.operation(),
                    allowance);
            try {
                attempt.run();
            } finally {
                progress.forget(heartbeat);
            }
        });
        return new Handed(taken, ended);
    }

    /** An attempt handed to the workers: taken when a worker starts it, ended when it is over. */
    public record Handed(Future<Void> taken, Future<?> ended) {
    }

    @PreDestroy
    void stop() {
        executor.shutdown();
    }
}
