package io.overseer.notification;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.OrderTransitions;
import io.overseer.statestore.PausedDispatch;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The needs-operator alert follows from a stored move of the task to Error, whoever made it, and from nothing
 * else: real records through real transitions, the publisher mocked.
 */
class NeedsOperatorAlertTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 29, 8, 0, 0, 0, ZoneOffset.UTC);
    private static final WorkflowDefinition AUDIT = new WorkflowDefinition("audit", List.of(
            new StepDefinition("audit", "audit-books", null, Duration.ofSeconds(30), 0, null, null, OnExhausted.ERROR)));
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");

    private final NeedsOperatorAlert observer = new NeedsOperatorAlert();

    @BeforeEach
    void wiring() {
        observer.alerts = mock(AlertPublisher.class);
    }

    @Test
    void aStoredMoveToErrorRaisesOneAlertWithItsReasonAndTrace() {
        OrderState state = OrderState.pending("o-1", AUDIT, T0, Actor.of(Actor.Kind.submission, "n"), null);
        Attempt audit = state.claim("node-a", T0, AUDIT, SCHEDULER, "claimed", PausedDispatch.NONE).get(0);
        stored(state);

        state.fail("node-a", audit.epoch(), audit.stepSeq(), "422 refused", T0.plusSeconds(1), AUDIT,
                Actor.of(Actor.Kind.agent, "remote"), PausedDispatch.NONE);
        observer.onTransitions(new OrderTransitions("o-1", state.processState(), false, state.drainHistory(), "00-trace"));

        verify(observer.alerts).raise("o-1", "00-trace", "needs-operator", state.lastError());
    }

    @Test
    void transitionsThatDoNotEndInErrorRaiseNothing() {
        OrderState state = OrderState.pending("o-1", AUDIT, T0, Actor.of(Actor.Kind.submission, "n"), null);
        state.claim("node-a", T0, AUDIT, SCHEDULER, "claimed", PausedDispatch.NONE);

        stored(state);

        verify(observer.alerts, never()).raise(anyString(), any(), anyString(), any());
    }

    private void stored(OrderState state) {
        observer.onTransitions(new OrderTransitions(state.orderId(), state.processState(), false, state.drainHistory(), null));
    }
}
