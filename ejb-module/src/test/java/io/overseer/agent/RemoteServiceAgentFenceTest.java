package io.overseer.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * When the agent checks its attempts against the state store before calling ({@link RemoteServiceAgent#needsFence}):
 * only a lone request delivered for the first time, fresh from its send and without a heartbeat, goes unchecked.
 */
class RemoteServiceAgentFenceTest {

    private static final Instant SENT = Instant.parse("2026-11-29T08:00:00Z");
    private static final Instant FRESH = SENT.plus(RemoteServiceAgent.FRESH);

    @Test
    void aLoneFirstDeliveryFreshFromItsSendIsNotChecked() {
        assertFalse(RemoteServiceAgent.needsFence(false, SENT, SENT.plusMillis(3), List.of(request(null))));
        assertFalse(RemoteServiceAgent.needsFence(false, SENT, FRESH, List.of(request(null))), "the bound itself is fresh");
    }

    @Test
    void aRedeliveryIsChecked() {
        assertTrue(RemoteServiceAgent.needsFence(true, SENT, SENT.plusMillis(3), List.of(request(null))));
    }

    @Test
    void aRequestThatWaitedInTheBrokerOrWhoseSendIsUnknownOrLaterThanNowIsChecked() {
        assertTrue(RemoteServiceAgent.needsFence(false, SENT, FRESH.plusMillis(1), List.of(request(null))));
        assertTrue(RemoteServiceAgent.needsFence(false, null, SENT, List.of(request(null))));
        assertTrue(RemoteServiceAgent.needsFence(false, SENT, SENT.minusMillis(1), List.of(request(null))),
                "a sender's clock ahead of ours tells nothing");
    }

    @Test
    void aBatchAndAnAttemptWithAHeartbeatAreChecked() {
        assertTrue(RemoteServiceAgent.needsFence(false, SENT, SENT.plusMillis(3), List.of(request(null), request(null))));
        assertTrue(RemoteServiceAgent.needsFence(false, SENT, SENT.plusMillis(3), List.of(request(Duration.ofSeconds(5)))));
    }

    private static AttemptRequest request(Duration heartbeat) {
        return new AttemptRequest("o-1", 1, 0, "t0ken", "charge-payment", "o-1:charge-payment",
                OffsetDateTime.of(2026, 11, 29, 8, 0, 30, 0, ZoneOffset.UTC), "c-1", List.of(), heartbeat, Map.of(), null);
    }
}
