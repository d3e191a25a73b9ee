package io.overseer.it.plugin;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A coded agent that breaks its contract once: its first call ignores the timeout and holds its agent
 * worker for {@link #HOLD} (as a blocking client without a timeout would); every later call is refused
 * at once, so that the order ends without holding another worker.
 */
@ApplicationScoped
public class StuckScreening implements RemoteService {

    public static final Duration HOLD = Duration.ofSeconds(20);
    /** Its own operation, which only LivenessIT's workflow ("stuck-screened") uses. */
    public static final String OPERATION = "stuck-screen";

    private final AtomicBoolean stuckOnce = new AtomicBoolean();

    @Override
    public String name() {
        return "stuck-screening";
    }

    @Override
    public boolean performs(String operation) {
        return OPERATION.equals(operation);
    }

    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        if (stuckOnce.compareAndSet(false, true)) {
            boolean interrupted = false;
            long until = System.nanoTime() + HOLD.toNanos();
            while (System.nanoTime() < until) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    interrupted = true; // a client stuck in a blocking read would not notice either
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return CallResult.refused("screening is not available in this test");
    }
}
