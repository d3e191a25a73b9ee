package io.overseer.scheduler;

import io.overseer.agent.AgentReply;
import io.overseer.statestore.Actor;
import io.overseer.statestore.Attempt;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.PausedDispatch;
import io.overseer.workflow.WorkflowDefinition;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Applies a batch of agent replies to the records they answer (locked by the caller), in the order they
 * came: pure state-machine work, no I/O, so that the scheduler can do it for a hundred orders in one
 * transaction. Each reply is judged first ({@link Verdict}): only a reply for the attempt now running,
 * carrying that attempt's token, moves a record. A repeated reply is stale once its first copy moved the
 * record on; a reply for a record in the batch twice sees the record as the earlier reply left it. The
 * attempts that replies start are held by the instance applying them, whoever claimed the record.
 */
final class ReplyBatch {

    /** What a reply is, seen from the state store. */
    enum Verdict {
        /** Answers the running attempt, with its token: applied. */
        CURRENT,
        /** Answers an attempt that is no longer running (late, repeated, or for an unknown order): ignored. */
        STALE,
        /** Names the running attempt but not its token: not written by an agent that read the request. */
        FORGED;

        static Verdict of(OrderState state, AgentReply reply) {
            if (state == null || !state.isCurrent(reply.epoch(), reply.stepSeq())) {
                return STALE;
            }
            return state.holdsToken(reply.stepSeq(), reply.token()) ? CURRENT : FORGED;
        }
    }

    /** The attempts to start, the records moved (to store), and the replies that were not applied. */
    record Result(List<Attempt> started, Set<OrderState> moved, List<AgentReply> stale, List<AgentReply> forged,
                  Set<String> handedBack) {
    }

    private ReplyBatch() {
    }

    static Result apply(Map<String, OrderState> locked, List<AgentReply> replies,
                        Function<OrderState, WorkflowDefinition> workflows, String instance, OffsetDateTime now) {
        return apply(locked, replies, workflows, instance, now, PausedDispatch.NONE);
    }

    /** As above; an attempt a reply would start whose operation is paused is not started: its record parks. */
    static Result apply(Map<String, OrderState> locked, List<AgentReply> replies,
                        Function<OrderState, WorkflowDefinition> workflows, String instance, OffsetDateTime now,
                        PausedDispatch paused) {
        List<Attempt> started = new ArrayList<>();
        Set<OrderState> moved = new LinkedHashSet<>();
        List<AgentReply> stale = new ArrayList<>();
        List<AgentReply> forged = new ArrayList<>();
        Set<String> handedBack = new LinkedHashSet<>();
        for (AgentReply reply : replies) {
            OrderState state = locked.get(reply.orderId());
            switch (Verdict.of(state, reply)) {
                case STALE -> stale.add(reply);
                case FORGED -> forged.add(reply);
                case CURRENT -> {
                    moved.add(state);
                    if (reply.outcome() == AgentReply.Outcome.HANDED_BACK) {
                        handedBack.add(state.orderId());
                    }
                    started.addAll(applyOne(state, reply, workflows.apply(state), instance, now, paused));
                }
            }
        }
        return new Result(started, moved, stale, forged, handedBack);
    }

    private static List<Attempt> applyOne(OrderState state, AgentReply reply, WorkflowDefinition definition,
                                              String instance, OffsetDateTime now, PausedDispatch paused) {
        Actor agent = Actor.of(Actor.Kind.agent, reply.operation());
        return switch (reply.outcome()) {
            case SUCCEEDED -> state.succeed(instance, reply.epoch(), reply.stepSeq(), now, definition, agent, paused);
            case FAILED -> state.fail(instance, reply.epoch(), reply.stepSeq(), reply.operation() + ": " + reply.detail(),
                    now, definition, agent, paused);
            case HANDED_BACK -> {
                state.handBack(reply.epoch(), reply.stepSeq(), reply.operation() + ": " + reply.detail(), now, agent);
                yield List.of();
            }
        };
    }
}
