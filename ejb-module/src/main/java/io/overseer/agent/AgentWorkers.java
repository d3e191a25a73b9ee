package io.overseer.agent;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
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
 */
@ApplicationScoped
public class AgentWorkers {

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;
    @Inject
    @ConfigProperty(name = "overseer.agent.concurrency", defaultValue = "64")
    int concurrency;

    private ExecutorService executor;

    @PostConstruct
    void start() {
        executor = new ThreadPoolExecutor(concurrency, concurrency, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                threads);
        ((ThreadPoolExecutor) executor).allowCoreThreadTimeOut(true);
    }

    public Future<?> submit(Runnable attempt) {
        return executor.submit(attempt);
    }

    @PreDestroy
    void stop() {
        executor.shutdown();
    }
}
