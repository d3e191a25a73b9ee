package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.AppServerNode;
import org.junit.jupiter.api.Test;

/**
 * An instance that starts while PostgreSQL is unreachable cannot deploy the application (the persistence
 * unit logs in while it deploys), and Payara Micro goes on running without it, answering 404 to everything (its readiness has no application check).
 * The launcher's start must say so at once — the application failed to deploy — rather than wait out its
 * readiness bound, so that the launcher's watchdog restarts the instance (seen in the chaos long run, RELIABILITY.md).
 */
class FailedDeploymentIT {

    @Test
    void aStartWhoseApplicationCannotDeployFailsSayingSo() {
        AppServerNode server = SystemServers.payaraMicroWithoutDatabase("no-database");
        try {
            IllegalStateException failure = assertThrows(IllegalStateException.class, server::start);
            assertTrue(failure.getMessage().contains("the application failed to deploy"), failure.getMessage());
            assertFalse(failure.getMessage().contains("not ready after"), failure.getMessage());
        } finally {
            server.kill9();
        }
    }
}
