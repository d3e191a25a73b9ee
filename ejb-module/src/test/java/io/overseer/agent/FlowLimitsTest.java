package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlowLimitsTest {

    @Test
    void readsEachOperationsLimitsAndIgnoresOtherSettings() {
        Map<String, String> config = Map.of(
                "overseer.agent.limit.charge-payment.in-flight", "5",
                "overseer.agent.limit.charge-payment.per-second", " 20 ",
                "overseer.agent.limit.ship.per-second", "1",
                "overseer.agent.service.payments.url", "https://pay.example/{operation}");
        Map<String, FlowLimits.FlowLimit> limits = FlowLimits.parse(config.keySet(), config::get);
        assertEquals(Map.of("charge-payment", new FlowLimits.FlowLimit("charge-payment", 5, 20),
                "ship", new FlowLimits.FlowLimit("ship", null, 1)), limits);
    }

    @Test
    void aLimitOfZeroANonNumberOrAnUnknownSettingFailsSayingWhich() {
        for (List<String> bad : List.of(
                List.of("overseer.agent.limit.charge-payment.in-flight", "0", "must be a whole number of at least 1"),
                List.of("overseer.agent.limit.charge-payment.per-second", "ten", "must be a whole number of at least 1"),
                List.of("overseer.agent.limit.charge-payment.burst", "3", "<operation>.in-flight or"),
                List.of("overseer.agent.limit.in-flight", "3", "<operation>.in-flight or"))) {
            AgentConfigurationException e = assertThrows(AgentConfigurationException.class,
                    () -> FlowLimits.parse(List.of(bad.get(0)), name -> bad.get(1)), bad.toString());
            assertTrue(e.getMessage().startsWith(bad.get(0)) && e.getMessage().contains(bad.get(2)), e.getMessage());
        }
    }
}
