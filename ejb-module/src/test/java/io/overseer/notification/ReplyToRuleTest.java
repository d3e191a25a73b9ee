package io.overseer.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.notification.ReplyTo.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ReplyToRuleTest {

    @ParameterizedTest
    @ValueSource(strings = {"orders", "agent.requests", "agent.replies", "alerts", "DLQ", "ExpiryQueue",
            "activemq.management", "activemq.notifications", "$sys.mqtt.sessions", "overseer.internal"})
    void internalDestinationsAreRefusedWhateverTypeTheClientClaims(String name) {
        for (Kind kind : Kind.values()) {
            assertTrue(ReplyToRule.violation(new ReplyTo(name, kind)).isPresent(), name + " as " + kind);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"overseer.reply.#", "overseer.reply.*", "overseer.reply.a?x=1", "overseer.reply.a b", ""})
    void wildcardsParametersAndOddCharactersAreRefused(String name) {
        assertTrue(ReplyToRule.violation(new ReplyTo(name, Kind.QUEUE)).isPresent(), name);
    }

    @Test
    void namedDestinationsNeedTheReplyPrefix() {
        assertTrue(ReplyToRule.violation(new ReplyTo("legacy.replies", Kind.QUEUE)).isPresent());
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.legacy-app", Kind.QUEUE)).isEmpty());
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.legacy-app", Kind.TOPIC)).isEmpty());
    }

    @Test
    void temporaryDestinationsOfEveryProtocolAreAccepted() {
        assertTrue(ReplyToRule.violation(new ReplyTo("5c1b0d5e-3f7a-4a4e-9d49-4f1f0c7d2a10", Kind.TEMPORARY_QUEUE)).isEmpty());
        assertTrue(ReplyToRule.violation(new ReplyTo("ID:host-41233-1700000000000-1:1:1", Kind.TEMPORARY_QUEUE)).isEmpty());
        assertTrue(ReplyToRule.violation(new ReplyTo("5c1b0d5e", Kind.TEMPORARY_TOPIC)).isEmpty());
    }

    @Test
    void parsesSchemes() {
        assertEquals(new ReplyTo("overseer.reply.a", Kind.TOPIC), ReplyTo.parse("topic://overseer.reply.a"));
        assertEquals(new ReplyTo("overseer.reply.a", Kind.QUEUE), ReplyTo.parse("queue://overseer.reply.a"));
        assertEquals(new ReplyTo("overseer.reply.a", Kind.QUEUE), ReplyTo.parse("overseer.reply.a"));
    }
}
