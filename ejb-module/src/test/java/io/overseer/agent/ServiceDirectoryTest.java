package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.agent.api.AgentRequest;
import io.overseer.agent.api.CallResult;
import io.overseer.agent.api.RemoteService;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServiceDirectoryTest {

    private static RemoteService coded(String name, String... operations) {
        return new RemoteService() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean performs(String operation) {
                return Set.of(operations).contains(operation);
            }

            @Override
            public CallResult call(AgentRequest request, Duration timeout) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static HttpRemoteService http(String name, String... operations) {
        return new HttpRemoteService(name, "http://x/{operation}", Set.of(operations),
                op -> StatusClassification.parse(StatusClassification.DEFAULT));
    }

    @Test
    void aClaimWinsOverTheCatchAll() {
        RemoteService screening = coded("screening", "screen-order");
        RemoteService fallback = http("remote-service");
        ServiceDirectory directory = new ServiceDirectory(List.of(fallback, screening));

        assertEquals("screening", directory.serviceFor("screen-order").name());
        assertEquals("remote-service", directory.serviceFor("charge-payment").name());
    }

    @Test
    void ambiguityAndGapsAreConfigurationErrors() {
        assertThrows(AgentConfigurationException.class,
                () -> new ServiceDirectory(List.of(http("a"), http("b"))), "two catch-alls");
        assertThrows(AgentConfigurationException.class,
                () -> new ServiceDirectory(List.of(coded("a", "x"), http("a", "y"))), "two services named a");

        ServiceDirectory twoClaims = new ServiceDirectory(List.of(coded("a", "x"), http("b", "x")));
        AgentConfigurationException e = assertThrows(AgentConfigurationException.class, () -> twoClaims.serviceFor("x"));
        assertTrue(e.getMessage().contains("a, b"), e.getMessage());

        e = assertThrows(AgentConfigurationException.class,
                () -> new ServiceDirectory(List.of(coded("fraud screening", "x"))), "a name with a space");
        assertTrue(e.getMessage().contains("'fraud screening'"), e.getMessage());

        ServiceDirectory noCatchAll = new ServiceDirectory(List.of(http("b", "x")));
        e = assertThrows(AgentConfigurationException.class, () -> noCatchAll.serviceFor("y"));
        assertTrue(e.getMessage().contains("No remote service performs operation 'y'"), e.getMessage());
    }
}
