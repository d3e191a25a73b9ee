package io.overseer.health;

import io.overseer.health.probes.HealthChecks;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/**
 * Hands the application's health checks to the server's MicroProfile Health (through the health-probes
 * library, see {@link HealthChecks}) when the web module starts, and tells readiness when it starts and
 * stops: its listeners run when the container starts the module, after the application's EJBs (schema
 * migration included) and just before the API is reachable — the latest point the standard lets an
 * application see.
 */
@WebListener
public class WebModuleLifecycle implements ServletContextListener {

    @Inject
    HealthChecks checks;
    @Inject
    Readiness.ApplicationCheck application;
    @Inject
    Readiness.DatabaseCheck database;
    @Inject
    Readiness.BrokerCheck broker;
    @Inject
    Liveness.WorkersCheck workers;
    @Inject
    Liveness.DatabasePoolCheck databasePool;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        checks.register(HealthChecks.DATABASE, database);
        checks.register(HealthChecks.BROKER, broker);
        checks.register(HealthChecks.WORKERS, workers);
        checks.register(HealthChecks.DATABASE_POOL, databasePool);
        application.serving(true);
        checks.register(HealthChecks.APPLICATION, application);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        application.serving(false);
    }
}
