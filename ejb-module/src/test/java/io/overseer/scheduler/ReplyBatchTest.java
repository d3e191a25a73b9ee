package io.overseer.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.agent.AgentReply;
import io.overseer.agent.AgentReply.Outcome;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.PausedDispatch;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StepStatus;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One transaction's worth of replies, judged and applied together: stale, failed, succeeded, forged, repeated. */
class ReplyBatchTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 23, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final Actor SCHEDULER = Actor.of(Actor.Kind.scheduler, "node-a");
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            step("reserve", "release"), step("charge", "refund")));

    private static StepDefinition step(String name, String compensation) {
        return new StepDefinition(name, name, compensation, Duration.ofSeconds(30), 2, null, null, OnExhausted.COMPENSATE);
    }

    private final Map<String, OrderState> locked = new LinkedHashMap<>();
    private final Map<String, Attempt> running = new LinkedHashMap<>();

    private void claimed(String orderId) {
        OrderState state = OrderState.pending(orderId, "order", ORDER.stepNames(), T0, Actor.of(Actor.Kind.submission, "n"));
        running.put(orderId, state.claim("node-a", T0, ORDER, SCHEDULER, "claimed", PausedDispatch.NONE).get(0));
        state.drainHistory();
        locked.put(orderId, state);
    }

    private AgentReply reply(String orderId, Outcome outcome) {
        Attempt attempt = running.get(orderId);
        return new AgentReply(orderId, attempt.epoch(), attempt.stepSeq(), attempt.token(), attempt.operation(), outcome, "d", null);
    }

    @Test
    void aMixedBatchAppliesOnlyCurrentRepliesWithTheirToken() {
        claimed("succeeds");
        claimed("fails");
        claimed("forged");
        claimed("repeated");
        AgentReply good = reply("succeeds", Outcome.SUCCEEDED);
        AgentReply refused = reply("fails", Outcome.FAILED);
        AgentReply lateEpoch = new AgentReply("succeeds", 0, 0, running.get("succeeds").token(), "reserve",
                Outcome.FAILED, "from an abandoned attempt", null);
        Attempt attempt = running.get("forged");
        AgentReply forged = new AgentReply("forged", attempt.epoch(), attempt.stepSeq(), "0".repeat(32), "reserve",
                Outcome.SUCCEEDED, "guessed", null);
        AgentReply unknown = new AgentReply("nobody", 1, 0, "t", "reserve", Outcome.SUCCEEDED, "d", null);
        AgentReply once = reply("repeated", Outcome.SUCCEEDED);

        ReplyBatch.Result result = ReplyBatch.apply(locked,
                List.of(good, refused, lateEpoch, forged, unknown, once, once), name -> ORDER, "node-a", T0.plusSeconds(1));

        OrderState succeeded = locked.get("succeeds");
        assertEquals(StepStatus.Completed, succeeded.steps().get(0).state());
        assertEquals(StepStatus.Running, succeeded.steps().get(1).state(), "the next step starts in place");
        assertEquals(ProcessState.Compensated, locked.get("fails").processState(),
                "refused first step: nothing done to undo");
        assertEquals(StepStatus.Running, locked.get("forged").steps().get(0).state(), "a forged reply moves nothing");
        assertEquals(ProcessState.Processing, locked.get("forged").processState());
        assertEquals(List.of(forged), result.forged());
        assertEquals(List.of(lateEpoch, unknown, once), result.stale(), "late, unknown, and the second copy");
        assertEquals(2, result.started().size(), "charge for both orders whose reserve succeeded");
        assertTrue(result.started().stream().allMatch(a -> a.operation().equals("charge") && a.token() != null));
        assertEquals(List.of("succeeds", "fails", "repeated"), result.moved().stream().map(OrderState::orderId).toList());
        assertTrue(result.handedBack().isEmpty());
    }

    @Test
    void afterAFailoverTheInstanceApplyingTheRepliesHoldsTheAttemptsTheyStart() {
        claimed("next-step");
        claimed("undo");
        ReplyBatch.Result before = ReplyBatch.apply(locked, List.of(reply("undo", Outcome.SUCCEEDED)), name -> ORDER,
                "node-a", T0);
        running.put("undo", before.started().get(0));

        // node-a, which claimed both orders and started the charge of "undo", is gone: node-b takes the replies.
        ReplyBatch.Result result = ReplyBatch.apply(locked,
                List.of(reply("next-step", Outcome.SUCCEEDED), reply("undo", Outcome.FAILED)), name -> ORDER,
                "node-b", T0.plusSeconds(1));

        assertEquals(List.of("charge", "release"), result.started().stream().map(Attempt::operation).toList());
        for (String orderId : List.of("next-step", "undo")) {
            OrderState state = locked.get(orderId);
            assertEquals("node-b", state.lockedBy(), orderId);
            assertTrue(state.steps().stream().filter(s -> s.lockedBy() != null)
                    .allMatch(s -> s.lockedBy().equals("node-b")), orderId);
        }
    }

    @Test
    void aHandedBackAttemptWaitsForASchedulerAgain() {
        claimed("o");

        ReplyBatch.Result result = ReplyBatch.apply(locked, List.of(reply("o", Outcome.HANDED_BACK)), name -> ORDER,
                "node-a", T0);

        assertEquals(ProcessState.Pending, locked.get("o").processState());
        assertEquals(java.util.Set.of("o"), result.handedBack());
        assertTrue(result.started().isEmpty());
    }
}
