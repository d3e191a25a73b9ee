package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AgentCallsTest {

    @Test
    void theTimersSumAndCountAreAddedOverOperationsAndNothingElse() {
        String exposition = """
                # TYPE overseer_agent_call_duration_seconds summary
                overseer_agent_call_duration_seconds_count{operation="charge-payment"} 60
                overseer_agent_call_duration_seconds_sum{operation="charge-payment"} 1.5
                overseer_agent_call_duration_seconds_count{operation="reserve-inventory"} 40
                overseer_agent_call_duration_seconds_sum{operation="reserve-inventory"} 0.5
                overseer_agent_call_duration_seconds_max{operation="reserve-inventory"} 0.2
                overseer_agent_calls_total{operation="reserve-inventory"} 40.0
                """;

        AgentCalls.Totals totals = AgentCalls.parse(exposition);

        assertEquals(100, totals.calls());
        assertEquals(2.0, totals.seconds(), 1e-9);
    }

    @Test
    void theMeanIsOverTheCallsBetweenTwoReadingsAndUnknownWithoutThem() {
        AgentCalls.Totals before = new AgentCalls.Totals(100, 2.0);
        AgentCalls.Totals after = new AgentCalls.Totals(130, 2.15);

        assertEquals(5.0, AgentCalls.meanMs(before, after), 1e-9);
        assertTrue(Double.isNaN(AgentCalls.meanMs(null, after)));
        assertTrue(Double.isNaN(AgentCalls.meanMs(before, before)));
    }
}
