package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.AppServerNode;
import io.overseer.launcher.Wait;
import org.junit.jupiter.api.Test;

/**
 * An instance that starts while PostgreSQL is unreachable cannot deploy the application (the persistence
 * unit logs in while it deploys), and Payara Micro goes on running without it. Its HTTP port must stay
 * closed — not answer readiness 200 with no checks and 404 to every order, as it did while the post-deploy
 * command file opened it whatever the outcome (seen by ./chaos during database failovers) — and the
 * launcher's start must say at once that the application failed to deploy, rather than wait out its
 * readiness bound, so that the launcher's watchdog restarts the instance (seen in the chaos long run,
 * RELIABILITY.md).
 */
class FailedDeploymentIT {

    @Test
    void aStartWhoseApplicationCannotDeployFailsSayingSo() {
        AppServerNode server = SystemServers.payaraMicroWithoutDatabase("no-database");
        try {
            IllegalStateException failure = assertThrows(IllegalStateException.class, server::start);
            assertTrue(failure.getMessage().contains("the application failed to deploy"), failure.getMessage());
            assertFalse(failure.getMessage().contains("not ready after"), failure.getMessage());
            assertNull(Wait.httpGet(server.baseUrl() + "/health/ready"), "the port of an instance without its application is closed");
        } finally {
            server.kill9();
        }
    }
}
