package io.overseer.health.probes;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * The application's health checks, by name, for the probes of {@link ReadinessProbes} and
 * {@link LivenessProbes}: the web module implements the checks (they need its resources and the EJB
 * module's beans) and registers them here when it starts.
 *
 * <p>Why not annotate the checks themselves: WildFly's MicroProfile Health takes the checks of an EAR from
 * the beans of its lib/ only, never from its EJB or web module (seen on WildFly 39: the web module's
 * checks were missing from /health, a check in a lib/ jar was there). The probes are such beans, on every
 * server, so each server finds the same checks under the same names.
 */
@ApplicationScoped
public class HealthChecks {

    /** The names the checks answer with; each probe asks for one. */
    public static final String APPLICATION = "application";
    public static final String DATABASE = "database";
    public static final String BROKER = "broker";
    public static final String WORKERS = "workers";
    public static final String DATABASE_POOL = "database-pool";

    private final Map<String, HealthCheck> checks = new ConcurrentHashMap<>();

    /** Makes a check answer for its name; a later registration replaces an earlier one (a redeployment). */
    public void register(String name, HealthCheck check) {
        checks.put(name, check);
    }

    /** The named check's answer, or {@code absent} while no check of that name is registered. */
    HealthCheckResponse call(String name, HealthCheckResponse absent) {
        HealthCheck check = checks.get(name);
        return check == null ? absent : check.call();
    }
}
