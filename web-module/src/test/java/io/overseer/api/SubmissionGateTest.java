package io.overseer.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The gate's admission rules, on the filter itself with stand-in requests (no server). */
class SubmissionGateTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger passed = new AtomicInteger();
    /** A permit for each request the chain has let in. */
    private final Semaphore entered = new Semaphore(0);

    @AfterEach
    void stop() {
        release.countDown();
        threads.shutdownNow();
    }

    private static SubmissionGate gate(int concurrency, Duration maxWait) {
        SubmissionGate gate = new SubmissionGate();
        gate.concurrency = concurrency;
        gate.maxWait = maxWait;
        gate.metrics = new SimpleMeterRegistry();
        gate.create();
        return gate;
    }

    /** A chain that holds the request inside until {@link #release} opens. */
    private final FilterChain holding = (request, response) -> {
        inside.incrementAndGet();
        passed.incrementAndGet();
        entered.release();
        try {
            release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inside.decrementAndGet();
        }
    };

    private static HttpServletRequest request(String method) {
        return (HttpServletRequest) Proxy.newProxyInstance(SubmissionGateTest.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getMethod" -> method;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    /** A response that records its status, headers and body. */
    private static final class Answer {
        int status = 200;
        final Map<String, String> headers = new HashMap<>();
        final StringWriter body = new StringWriter();

        HttpServletResponse response() {
            return (HttpServletResponse) Proxy.newProxyInstance(SubmissionGateTest.class.getClassLoader(),
                    new Class<?>[] {HttpServletResponse.class}, (proxy, m, args) -> switch (m.getName()) {
                        case "setStatus" -> {
                            status = (Integer) args[0];
                            yield null;
                        }
                        case "setHeader" -> {
                            headers.put((String) args[0], (String) args[1]);
                            yield null;
                        }
                        case "setContentType" -> {
                            headers.put("Content-Type", (String) args[0]);
                            yield null;
                        }
                        case "setCharacterEncoding" -> null;
                        case "getWriter" -> new PrintWriter(body, true);
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
        }
    }

    private Future<Answer> post(SubmissionGate gate, FilterChain chain) {
        return threads.submit(() -> {
            Answer answer = new Answer();
            gate.doFilter(request("POST"), answer.response(), chain);
            return answer;
        });
    }

    /** Until {@code count} more requests are inside the chain. */
    private void awaitInside(int count) throws InterruptedException {
        assertTrue(entered.tryAcquire(count, 5, TimeUnit.SECONDS), "requests inside: " + inside.get());
        assertEquals(count, inside.get());
    }

    /**
     * Until a request queues at the door (the gauge reads the gate's own queue) or a second one got in,
     * whichever comes first, so that the assertion after it fails at once if the gate let it through.
     */
    private void awaitQueuedOrPassed(SubmissionGate gate) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (waiting(gate) < 1 && passed.get() < 2) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the second request neither queued nor passed");
            }
            Thread.yield();
        }
    }

    private static double waiting(SubmissionGate gate) {
        return gate.metrics.get("overseer.submission.waiting").gauge().value();
    }

    @Test
    void aSubmissionBeyondTheBoundIsRefusedWithA503ProblemAfterItsWaitAndNeverReachesTheApplication()
            throws Exception {
        SubmissionGate gate = gate(2, Duration.ofMillis(200));
        post(gate, holding);
        post(gate, holding);
        awaitInside(2);

        Answer refused = post(gate, holding).get(5, TimeUnit.SECONDS);

        assertEquals(503, refused.status);
        assertEquals("1", refused.headers.get("Retry-After"));
        assertEquals(Problem.MEDIA_TYPE, refused.headers.get("Content-Type"));
        assertTrue(refused.body.toString().contains("none of this request was stored"), refused.body.toString());
        assertEquals(2, passed.get(), "the refused request never reached the resource");
        assertEquals(1, gate.metrics.get("overseer.submission.refused").counter().count());
        assertEquals(2, gate.metrics.get("overseer.submission.in.progress").gauge().value());
    }

    @Test
    void aWaitingSubmissionGoesInWhenOneAheadOfItLeaves() throws Exception {
        SubmissionGate gate = gate(1, Duration.ofSeconds(5));
        Future<Answer> first = post(gate, holding);
        awaitInside(1);
        Future<Answer> second = post(gate, holding);
        awaitQueuedOrPassed(gate);
        assertEquals(1, passed.get(), "the second waits while the first is inside");
        assertEquals(1, waiting(gate));

        release.countDown();

        assertEquals(200, first.get(5, TimeUnit.SECONDS).status);
        assertEquals(200, second.get(5, TimeUnit.SECONDS).status);
        assertEquals(2, passed.get());
    }

    @Test
    void readsAreNotGated() throws Exception {
        SubmissionGate gate = gate(1, Duration.ofMillis(50));
        post(gate, holding);
        awaitInside(1);
        AtomicInteger reads = new AtomicInteger();

        gate.doFilter(request("GET"), new Answer().response(), (request, response) -> reads.incrementAndGet());

        assertEquals(1, reads.get());
    }

    @Test
    void aFailingSubmissionGivesItsPlaceBack() throws Exception {
        SubmissionGate gate = gate(1, Duration.ofMillis(500));
        FilterChain failing = (request, response) -> {
            throw new ServletException("the resource failed");
        };
        for (int i = 0; i < 3; i++) {
            assertThrows(ServletException.class,
                    () -> gate.doFilter(request("POST"), new Answer().response(), failing));
        }
        AtomicInteger after = new AtomicInteger();

        gate.doFilter(request("POST"), new Answer().response(), (request, response) -> after.incrementAndGet());

        assertEquals(1, after.get(), "a permit leaked by a failure would have kept this one out");
    }

    @Test
    void aBoundBelowOneIsRefusedAtStart() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> gate(0, Duration.ofSeconds(1)));
        assertTrue(refused.getMessage().contains("overseer.submission.concurrency"));
        assertFalse(refused.getMessage().isBlank());
    }
}
