package io.overseer.health;

import io.overseer.messaging.Destinations;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.QueueBrowser;
import java.sql.Connection;
import java.sql.Statement;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;

/**
 * Ready only when PostgreSQL and the broker answer a round trip: an instance that can reach neither
 * would accept orders it cannot store or dispatch.
 */
public final class Readiness {
    // Holder of the two checks; each check is its own bean.

    private Readiness() {
    }

    @org.eclipse.microprofile.health.Readiness
    @ApplicationScoped
    public static class DatabaseCheck implements HealthCheck {
        @Resource(lookup = "jdbc/overseer")
        DataSource dataSource;

        @Override
        public HealthCheckResponse call() {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("SELECT 1");
                return HealthCheckResponse.up("database");
            } catch (Exception e) {
                return HealthCheckResponse.named("database").down().withData("error", e.getClass().getSimpleName()).build();
            }
        }
    }

    @org.eclipse.microprofile.health.Readiness
    @ApplicationScoped
    public static class BrokerCheck implements HealthCheck {
        @Resource(lookup = Destinations.CONNECTION_FACTORY)
        ConnectionFactory connectionFactory;

        @Override
        public HealthCheckResponse call() {
            try (JMSContext context = connectionFactory.createContext();
                 QueueBrowser browser = context.createBrowser(context.createQueue(Destinations.ORDERS))) {
                browser.getEnumeration().hasMoreElements();
                return HealthCheckResponse.up("broker");
            } catch (Exception e) {
                return HealthCheckResponse.named("broker").down().withData("error", e.getClass().getSimpleName()).build();
            }
        }
    }
}
