package io.overseer.broker;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.junit.jupiter.api.Test;

class OrderQueuePolicyTest {

    @Test
    void aMessageOverTheLimitIsRefusedWithTheReason() {
        OrderQueuePolicy policy = new OrderQueuePolicy();
        policy.init(Map.of("addresses", "orders", "max-message-bytes", "294912"));

        assertDoesNotThrow(() -> policy.check(294_912, "orders", "legacy-app"));
        ActiveMQException refused = assertThrows(ActiveMQException.class, () -> policy.check(294_913, "orders", "legacy-app"));
        assertTrue(refused.getMessage().contains("at most 294912 bytes"), refused.getMessage());
    }

    @Test
    void anIncompleteConfigurationFailsTheBrokersStart() {
        assertThrows(IllegalArgumentException.class, () -> new OrderQueuePolicy().init(Map.of("addresses", "orders")));
        assertThrows(IllegalArgumentException.class,
                () -> new OrderQueuePolicy().init(Map.of("addresses", "orders", "max-message-bytes", "10")));
    }
}
