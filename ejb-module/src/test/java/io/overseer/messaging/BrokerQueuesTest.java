package io.overseer.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSRuntimeException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A broker that does not answer never holds a caller longer than the bound, and stuck calls do not pile
 * up threads: while {@link BrokerQueues#MAX_IN_FLIGHT} are stuck, the next call waits the bound for one
 * of them and then fails without sending anything.
 */
class BrokerQueuesTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch brokerBack = new CountDownLatch(1);

    @AfterEach
    void release() throws InterruptedException {
        brokerBack.countDown();
        threads.shutdown();
        assertTrue(threads.awaitTermination(5, TimeUnit.SECONDS));
    }

    @Test
    void aBrokerThatDoesNotAnswerIsUnavailableWithinTheBoundAndStuckCallsDoNotPileUp() {
        BrokerQueues queues = queues(hangingFactory());

        for (int stuck = 0; stuck < BrokerQueues.MAX_IN_FLIGHT; stuck++) {
            long started = System.nanoTime();
            BrokerUnavailableException e = assertThrows(BrokerUnavailableException.class, queues::queues);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertTrue(millis >= 200 && millis < 2000, millis + " ms");
            assertTrue(e.getMessage().contains("did not answer within 200 ms"), e.getMessage());
        }
        long started = System.nanoTime();
        BrokerUnavailableException e = assertThrows(BrokerUnavailableException.class, () -> queues.redrive(1));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(millis >= 200 && millis < 2000, millis + " ms");
        assertTrue(e instanceof BrokerQueues.NotSent && e.getMessage().contains("still waiting"), e.getMessage());
    }

    @Test
    void aBrokerThatRefusesIsUnavailableAtOnce() throws InterruptedException {
        awaitNoCallInFlight();
        BrokerQueues queues = queues(factory((proxy, method, args) -> {
            throw new JMSRuntimeException("AMQ219010: Connection is destroyed");
        }));

        BrokerUnavailableException e = assertThrows(BrokerUnavailableException.class, () -> queues.deadLetters(10));

        assertTrue(e.getMessage().contains("Connection is destroyed"), e.getMessage());
        awaitNoCallInFlight();
    }

    /** The other test's stuck calls end when its broker comes back; permits are shared. */
    private static void awaitNoCallInFlight() throws InterruptedException {
        for (int i = 0; i < 100 && availablePermits() < BrokerQueues.MAX_IN_FLIGHT; i++) {
            Thread.sleep(50);
        }
        assertEquals(BrokerQueues.MAX_IN_FLIGHT, availablePermits());
    }

    private static int availablePermits() {
        try {
            var field = BrokerQueues.class.getDeclaredField("IN_FLIGHT");
            field.setAccessible(true);
            return ((java.util.concurrent.Semaphore) field.get(null)).availablePermits();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private BrokerQueues queues(ConnectionFactory factory) {
        BrokerQueues queues = new BrokerQueues();
        queues.factory = factory;
        queues.executor = executor();
        queues.callTimeoutMillis = 200;
        return queues;
    }

    /** Like a client whose broker froze: blocks, deaf to interrupts, until the broker is back. */
    private ConnectionFactory hangingFactory() {
        return factory((proxy, method, args) -> {
            boolean interrupted = false;
            while (true) {
                try {
                    brokerBack.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new JMSRuntimeException("the broker was away");
        });
    }

    private static ConnectionFactory factory(java.lang.reflect.InvocationHandler handler) {
        return (ConnectionFactory) Proxy.newProxyInstance(BrokerQueuesTest.class.getClassLoader(),
                new Class<?>[] {ConnectionFactory.class}, handler);
    }

    /** The server's executor, as a plain thread pool. */
    private ManagedExecutorService executor() {
        return (ManagedExecutorService) Proxy.newProxyInstance(BrokerQueuesTest.class.getClassLoader(),
                new Class<?>[] {ManagedExecutorService.class}, (proxy, method, args) -> {
                    try {
                        return method.invoke(threads, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
