package io.overseer.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Bounds how many REST submissions the server works on at once, so that a burst of them cannot starve the
 * orders already accepted. Without it, 32 clients kept 32 request threads runnable against the handful
 * that claim, apply replies and send: the operating system shares the cores by thread, and when the last
 * of 1,500 submissions returned only 550–678 orders were final (p50 submit → Processed 4.8–7.3 s). Past
 * the gate, a submission is parsed, validated and stored as before; requests beyond
 * {@code overseer.submission.concurrency} wait their turn in arrival order, holding a request thread but no
 * CPU, no database connection and no transaction.
 *
 * <p>Why 8 on 2 cores (BENCHMARKS.md, decision 18): at 8, 92–93 % were final when the last submission
 * returned, p50 1.3 s, at the cost of about 10 % of the burst's throughput; at 4 processing kept pace too,
 * but the burst ran 30 % slower: too few submission transactions at once to share PostgreSQL's commits.
 * The price is the REST submission rate itself (the no-op overhead figure, which only measures it, fell by
 * a quarter).
 *
 * <p>A batch ({@code POST /api/orders/batch}) passes the door as one submission: one permit for its one
 * request thread, one transaction and one database connection, held while all its orders are stored. What
 * the door bounds is how many threads compete for the cores with the orders already accepted, not how many
 * orders enter; a batch of 100 holds its permit about as long as a few dozen single orders would hold theirs
 * one after the other, which slows the next batches by itself. A permit per order would make a batch larger
 * than {@code overseer.submission.concurrency} wait forever.
 *
 * <p>A request that waited {@code overseer.submission.max-wait} is answered 503 with Retry-After: nothing
 * was stored, and a retry with the same Idempotency-Key is safe. JMS submissions need no gate: the order
 * queue's listener sessions ({@code maxSession}) bound them already.
 *
 * <p>Seen in {@code /api/metrics}: submissions in progress and waiting (gauges), and those refused after
 * their wait (a counter) — an operator sees the door holding a burst back before any client sees a 503.
 */
@WebFilter(urlPatterns = {"/api/orders", "/api/orders/", "/api/orders/batch"}) // exact: reads and the order pages are not gated
public class SubmissionGate extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    @ConfigProperty(name = "overseer.submission.concurrency", defaultValue = "8")
    int concurrency;
    @Inject
    @ConfigProperty(name = "overseer.submission.max-wait", defaultValue = "PT10S")
    Duration maxWait;

    @Inject
    transient MeterRegistry metrics;

    private transient Semaphore permits;
    private transient Counter refused;

    @PostConstruct
    void create() {
        if (concurrency < 1) {
            throw new IllegalStateException("overseer.submission.concurrency must be at least 1, not " + concurrency);
        }
        if (maxWait.isNegative()) {
            throw new IllegalStateException("overseer.submission.max-wait must not be negative, not " + maxWait);
        }
        permits = new Semaphore(concurrency, true);
        Gauge.builder("overseer.submission.in.progress", permits, p -> concurrency - p.availablePermits())
                .description("REST submissions past the door, being worked on").register(metrics);
        Gauge.builder("overseer.submission.waiting", permits, Semaphore::getQueueLength)
                .description("REST submissions waiting at the door for their turn").register(metrics);
        refused = Counter.builder("overseer.submission.refused").description("REST submissions refused after"
                + " waiting overseer.submission.max-wait (503)").register(metrics);
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!"POST".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        boolean admitted;
        try {
            admitted = permits.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            admitted = false;
        }
        if (!admitted) {
            refused.increment();
            busy(response);
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            permits.release();
        }
    }

    private void busy(HttpServletResponse response) throws IOException {
        response.setHeader("Retry-After", "1");
        Problem.of(503, "Service Unavailable", "Too many submissions are waiting; none of this request was stored."
                + " Retry it (with the same Idempotency-Key, if it had one) in a moment").writeTo(response);
    }
}
