package io.overseer.messaging;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import org.junit.jupiter.api.Test;

/** Which send failures drop one message (its destination is gone) and which are the broker's (retried). */
class CourierSenderTest {

    @Test
    void aDestinationTheBrokerSaysIsGoneDropsTheMessage() {
        // What the Artemis client throws for a temporary queue whose connection has closed.
        assertTrue(CourierSender.isGone(new JMSRuntimeException("There is no queue with name 9c7b4afd", null,
                new JMSException("There is no queue with name 9c7b4afd"))));
        assertTrue(CourierSender.isGone(new jakarta.jms.InvalidDestinationRuntimeException("gone")));
        assertTrue(CourierSender.isGone(new jakarta.jms.JMSSecurityRuntimeException("not allowed")));
    }

    @Test
    void aBrokerThatDoesNotAnswerIsRetried() {
        assertFalse(CourierSender.isGone(new JMSRuntimeException("AMQ219010: Connection is destroyed")));
        assertFalse(CourierSender.isGone(new JMSRuntimeException("AMQ219014: Timed out after waiting 30000 ms", null,
                new JMSException("AMQ219014: Timed out after waiting 30000 ms"))));
    }
}
