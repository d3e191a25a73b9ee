package io.overseer.api;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The threads that write Server-Sent Events, so that the feed's ticker never writes to a connection
 * itself. A send on Jersey blocks its thread while the client's connection takes no more (at most the
 * container's write timeout, 30 s on Payara); each client has at most one send under way
 * ({@link Subscriber}), so a client that stops reading holds one of these threads at most and the others
 * serve everyone else. Only more clients stalled at once than there are threads delay the rest, until
 * their writes time out. Container-managed threads, started when needed and ended when idle.
 */
@ApplicationScoped
public class EventSenders implements Executor {

    @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
    ManagedThreadFactory threads;
    @Inject
    @ConfigProperty(name = "overseer.events.sender-threads", defaultValue = "32")
    int size;

    private ThreadPoolExecutor executor;

    @PostConstruct
    void start() {
        executor = new ThreadPoolExecutor(size, size, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), threads);
        executor.allowCoreThreadTimeOut(true);
    }

    @Override
    public void execute(Runnable work) {
        executor.execute(work);
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }
}
