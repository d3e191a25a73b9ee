package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.agent.api.CallResult.Kind;
import io.overseer.agent.api.CallResult;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HttpServiceConfigTest {

    private final Map<String, String> properties = new HashMap<>();
    private final HttpServiceConfig config = new HttpServiceConfig(key -> Optional.ofNullable(properties.get(key)));

    @Test
    void withoutConfigurationOneServiceTakesEveryOperationAtTheLegacyUrl() {
        properties.put("overseer.remote-service.url", "http://127.0.0.1:9999/");

        List<HttpRemoteService> services = config.httpServices();

        assertEquals(1, services.size());
        HttpRemoteService service = services.get(0);
        assertEquals("remote-service", service.name());
        assertTrue(service.isCatchAll());
        assertFalse(service.performs("charge-payment"), "a catch-all claims nothing: it takes what is left");
        assertEquals("http://127.0.0.1:9999/operations/charge-payment", service.uri("charge-payment").toString());
    }

    @Test
    void servicesClaimTheirOperationsAndClassifyPerOperation() {
        properties.put("overseer.agent.http-services", "payments, warehouse");
        properties.put("overseer.agent.service.payments.url", "https://pay.example/api/{operation}");
        properties.put("overseer.agent.service.payments.operations", "charge-payment,refund-payment");
        properties.put("overseer.agent.service.payments.transient-statuses", "503");
        properties.put("overseer.agent.service.payments.operation.refund-payment.transient-statuses", "409,5xx");
        properties.put("overseer.agent.service.warehouse.url", "http://wh.example/reserve");
        properties.put("overseer.agent.service.warehouse.operations", "reserve-inventory");

        List<HttpRemoteService> services = config.httpServices();

        HttpRemoteService payments = services.get(0);
        assertTrue(payments.performs("refund-payment"));
        assertFalse(payments.performs("reserve-inventory"));
        assertEquals("https://pay.example/api/refund-payment", payments.uri("refund-payment").toString());
        assertEquals(Kind.NONTRANSIENT, payments.classificationOf("charge-payment").classify(409, "").kind());
        assertEquals(Kind.TRANSIENT, payments.classificationOf("refund-payment").classify(409, "").kind());
        assertEquals(Kind.NONTRANSIENT, payments.classificationOf("charge-payment").classify(500, "").kind());
        assertEquals("http://wh.example/reserve", services.get(1).uri("reserve-inventory").toString());
    }

    @Test
    void badValuesNameTheirKey() {
        properties.put("overseer.agent.http-services", "payments");
        assertMessage("overseer.agent.service.payments.url is required");
        properties.put("overseer.agent.service.payments.url", "ftp://x");
        assertMessage("overseer.agent.service.payments.url must be an http(s) URL");
        properties.put("overseer.agent.service.payments.url", "http://x/{operation}");
        properties.put("overseer.agent.service.payments.transient-statuses", "5xx,oops");
        assertMessage("overseer.agent.service.payments.transient-statuses: 'oops'");
        properties.put("overseer.agent.http-services", "Pay Ments");
        assertMessage("'Pay Ments' is not a service name");
    }

    @Test
    void circuitSettingsHaveDefaultsAndAreValidated() {
        HttpServiceConfig.CircuitSettings defaults = config.circuit("payments");
        assertEquals(new HttpServiceConfig.CircuitSettings(true, 10, 10, 0.5, Duration.ofSeconds(5), 1), defaults);

        properties.put("overseer.agent.service.payments.circuit.window", "4");
        properties.put("overseer.agent.service.payments.circuit.open-for", "PT2S");
        assertEquals(4, config.circuit("payments").minimumCalls(), "minimum calls default to the window");
        assertEquals(Duration.ofSeconds(2), config.circuit("payments").openFor());

        properties.put("overseer.agent.service.payments.circuit.failure-ratio", "1.5");
        AgentConfigurationException e = assertThrows(AgentConfigurationException.class, () -> config.circuit("payments"));
        assertTrue(e.getMessage().startsWith("overseer.agent.service.payments.circuit.failure-ratio"), e.getMessage());
    }

    private void assertMessage(String expected) {
        AgentConfigurationException e = assertThrows(AgentConfigurationException.class, config::httpServices);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
