package io.overseer.health;

import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/**
 * Tells readiness when the web module starts and stops: its listeners run when the container starts
 * the module, after the application's EJBs (schema migration included) and just before the API is
 * reachable — the latest point the standard lets an application see.
 */
@WebListener
public class WebModuleLifecycle implements ServletContextListener {

    @Inject
    @org.eclipse.microprofile.health.Readiness // the check's qualifier: it has no @Default
    Readiness.ApplicationCheck application;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        application.serving(true);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        application.serving(false);
    }
}
