package io.overseer.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.notification.ReplyTo.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReplyToRuleTest {

    private static final String USER = "legacy-app";

    @ParameterizedTest
    @ValueSource(strings = {"orders", "agent.requests", "agent.replies", "alerts", "DLQ", "ExpiryQueue",
            "activemq.management", "activemq.notifications", "$sys.mqtt.sessions", "overseer.internal"})
    void internalDestinationsAreRefusedWhateverTypeTheClientClaims(String name) {
        for (Kind kind : Kind.values()) {
            assertTrue(ReplyToRule.violation(new ReplyTo(name, kind), USER).isPresent(), name + " as " + kind);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"overseer.reply.legacy-app.#", "overseer.reply.legacy-app.*", "overseer.reply.#",
            "overseer.reply.legacy-app.a?x=1", "overseer.reply.legacy-app.a b", ""})
    void wildcardsParametersAndOddCharactersAreRefused(String name) {
        assertTrue(ReplyToRule.violation(new ReplyTo(name, Kind.QUEUE), USER).isPresent(), name);
    }

    @Test
    void aNamedDestinationMustCarryTheSubmittersOwnPrefix() {
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.legacy-app.erp", Kind.QUEUE), USER).isEmpty());
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.legacy-app.erp.eu", Kind.TOPIC), USER).isEmpty());

        assertTrue(ReplyToRule.violation(new ReplyTo("legacy.replies", Kind.QUEUE), USER).isPresent());
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.legacy-app", Kind.QUEUE), USER).isPresent(),
                "the old unprefixed form is another user's name space");
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.legacy-app.", Kind.QUEUE), USER).isPresent());
        String othersQueue = ReplyToRule.violation(new ReplyTo("overseer.reply.other-app.erp", Kind.QUEUE), USER)
                .orElseThrow();
        assertTrue(othersQueue.contains("overseer.reply.legacy-app.…"), othersQueue);
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.legacy-app-2.erp", Kind.QUEUE), USER).isPresent(),
                "a longer user name is another user");
    }

    @Test
    void aUserWithoutAUsableNameOrUnknownHasNoNamedQueue() {
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.a.b.x", Kind.QUEUE), "a.b").isPresent());
        assertTrue(ReplyToRule.violation(new ReplyTo("overseer.reply.null.x", Kind.QUEUE), null).isPresent());
        assertTrue(ReplyToRule.violation(new ReplyTo("5c1b0d5e-3f7a", Kind.TEMPORARY_QUEUE), "a.b").isEmpty(),
                "such a user takes a temporary queue");
    }

    @Test
    void temporaryQueuesPassTheRuleButNeedTheirOwnerChecked() {
        assertTrue(ReplyToRule.violation(new ReplyTo("ID:host.example-41233-1:1:1", Kind.TEMPORARY_QUEUE), USER)
                .isPresent(), "a dotted name is not one the broker lets the application look up");
        for (String name : new String[] {"5c1b0d5e-3f7a-4a4e-9d49-4f1f0c7d2a10", "ID:host-41233-1700000000000-1:1:1"}) {
            ReplyTo temporary = new ReplyTo(name, Kind.TEMPORARY_QUEUE);
            assertTrue(ReplyToRule.violation(temporary, USER).isEmpty(), name);
            assertTrue(ReplyToRule.needsOwnerCheck(temporary));
        }
        assertFalse(ReplyToRule.needsOwnerCheck(new ReplyTo("overseer.reply.legacy-app.erp", Kind.QUEUE)));
    }

    @Test
    void temporaryTopicsAreRefusedSinceTheirOwnerIsUnknown() {
        String why = ReplyToRule.violation(new ReplyTo("5c1b0d5e", Kind.TEMPORARY_TOPIC), USER).orElseThrow();
        assertTrue(why.contains("temporary topic"), why);
    }

    @Test
    void parsesSchemes() {
        assertEquals(new ReplyTo("overseer.reply.a", Kind.TOPIC), ReplyTo.parse("topic://overseer.reply.a"));
        assertEquals(new ReplyTo("overseer.reply.a", Kind.QUEUE), ReplyTo.parse("queue://overseer.reply.a"));
        assertEquals(new ReplyTo("overseer.reply.a", Kind.QUEUE), ReplyTo.parse("overseer.reply.a"));
    }
}
