package io.overseer.it.plugin;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.Heartbeats;
import io.overseer.agent.api.RemoteService;
import jakarta.ejb.EJB;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A sample coded agent for a long operation that reports it is alive ({@link Heartbeats}). For each order,
 * its first attempt beats twice and then falls silent — a worker hung on something — while it holds on for
 * {@link #SILENT} (well under the step's complete-by); the supervisor notices the missed heartbeat and
 * retries. Every later attempt beats every half second while it works for two seconds, and succeeds.
 */
@ApplicationScoped
public class StockAudit implements RemoteService {

    public static final Duration SILENT = Duration.ofSeconds(15);

    private final Map<String, Boolean> hungOnce = new ConcurrentHashMap<>();

    // By its name, as a team's agent in an EAR's lib/ must (the WAR's CDI would also take a plain @Inject).
    @EJB(lookup = Heartbeats.JNDI_NAME)
    Heartbeats heartbeats;

    @Override
    public String name() {
        return "stock-audit";
    }

    @Override
    public boolean performs(String operation) {
        return "audit-stock".equals(operation);
    }

    @Override
    public CallResult call(AgentRequest request, Duration timeout) {
        if (hungOnce.putIfAbsent(request.orderId(), true) == null) {
            for (int beat = 0; beat < 2; beat++) {
                heartbeats.beat(request);
                pause(Duration.ofSeconds(1));
            }
            pause(SILENT);
            return CallResult.transientFault("audit worker was hung");
        }
        for (int beat = 0; beat < 4; beat++) {
            if (!heartbeats.beat(request)) {
                return CallResult.transientFault("attempt taken over; stopping");
            }
            pause(Duration.ofMillis(500));
        }
        return CallResult.success("stock audited");
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
