package io.overseer.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * What a health-checking load balancer in front of the instances knows: which instances answer
 * {@code GET /health/ready} with 200, probed every {@value #PROBE_EVERY_MS} ms each (one thread per
 * instance, so a frozen instance does not delay the others' probes). Submitters send only to instances in
 * rotation, as users are told to deploy several instances (docs/instances.md).
 *
 * <p>Without it the runner sent to every instance in turn, and in the long run of 2026-11-23 an instance
 * restarted while PostgreSQL was down answered 419 submissions with Payara's 404 page for 112 s: its
 * application had failed to deploy (the JPA provider logs in at deployment), its readiness said DOWN the
 * whole time, and a balancer would have sent it nothing.
 */
final class Balancer implements AutoCloseable {

    static final long PROBE_EVERY_MS = 1000;
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    private final List<String> baseUrls;
    private final AtomicIntegerArray inRotation;
    private final ScheduledExecutorService probes;

    Balancer(List<String> baseUrls) {
        this(baseUrls, Duration.ofMillis(PROBE_EVERY_MS));
    }

    /** Probing every {@code probeEvery}: tests take a short one and wait for the probes they need. */
    Balancer(List<String> baseUrls, Duration probeEvery) {
        this.baseUrls = List.copyOf(baseUrls);
        this.inRotation = new AtomicIntegerArray(this.baseUrls.size());
        this.probes = Executors.newScheduledThreadPool(this.baseUrls.size(), r -> {
            Thread t = new Thread(r, "chaos-balancer-probe");
            t.setDaemon(true);
            return t;
        });
        for (int i = 0; i < this.baseUrls.size(); i++) {
            int k = i;
            probe(k); // the first answer before the first submission
            probes.scheduleWithFixedDelay(() -> probe(k), probeEvery.toNanos(), probeEvery.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void probe(int k) {
        inRotation.set(k, Health.ready(baseUrls.get(k), PROBE_TIMEOUT) ? 1 : 0);
    }

    /**
     * The instance for a try: the {@code attempt}-th in rotation, counted from {@code preferred} (so
     * consecutive orders and retries spread over the instances). With none in rotation, where a balancer
     * would answer 503, any instance: the try fails or succeeds on its own and the submitter retries.
     */
    String pick(int preferred, int attempt) {
        List<String> up = new ArrayList<>(baseUrls.size());
        for (int k = 0; k < baseUrls.size(); k++) {
            int i = Math.floorMod(preferred + k, baseUrls.size());
            if (inRotation.get(i) == 1) {
                up.add(baseUrls.get(i));
            }
        }
        List<String> from = up.isEmpty() ? rotate(preferred) : up;
        return from.get(Math.floorMod(attempt, from.size()));
    }

    private List<String> rotate(int preferred) {
        List<String> all = new ArrayList<>(baseUrls.size());
        for (int k = 0; k < baseUrls.size(); k++) {
            all.add(baseUrls.get(Math.floorMod(preferred + k, baseUrls.size())));
        }
        return all;
    }

    @Override
    public void close() {
        probes.shutdownNow();
    }
}
