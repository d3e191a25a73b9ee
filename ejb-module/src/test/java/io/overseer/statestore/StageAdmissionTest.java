package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StageAdmissionTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    private static final WorkflowDefinition GROUP = new WorkflowDefinition("group", List.of(
            step("invoice"), step("ship"), StepDefinition.awaiting("await-approval", "approval", Duration.ofHours(1),
                    OnExhausted.COMPENSATE)));

    @Test
    void aPausedStepParksTheRecordAndTakesNoSlotOfItsLimit() {
        Limiter limiter = new Limiter(Map.of());
        StageAdmission admission = StageAdmission.of(waiting("invoice", "ship"), GROUP,
                new PausedDispatch(Set.of("invoice")).limitedBy(limiter), T0);

        assertEquals(List.of("ship"), names(admission.admitted()));
        assertEquals("invoice", admission.parkedOn());
        assertEquals(List.of("ship"), limiter.asked, "the paused invoice was never counted");
        assertEquals("waits: dispatch of invoice is paused", admission.heldReason());
    }

    @Test
    void overTheirLimitsTheRecordWaitsForTheLimitThatFreesSoonest() {
        Limiter limiter = new Limiter(Map.of("invoice", T0.plusSeconds(5), "ship", T0.plusSeconds(3)));
        StageAdmission admission = StageAdmission.of(waiting("invoice", "ship"), GROUP,
                PausedDispatch.NONE.limitedBy(limiter), T0);

        assertTrue(admission.admitted().isEmpty());
        assertNull(admission.parkedOn());
        assertEquals("ship", admission.limitedOn());
        assertEquals(T0.plusSeconds(3), admission.limitedUntil());
        assertEquals(T0.plusSeconds(3), admission.heldBeside(T0).notBefore());
    }

    @Test
    void aStepInItsBackoffWaitsUnaskedAndAWaitForAnEventCallsNothingSoNothingHoldsIt() {
        Limiter limiter = new Limiter(Map.of());
        List<StepState> waiting = waiting("invoice", "await-approval");
        waiting.get(0).dueAt(T0.plusSeconds(30));
        StageAdmission admission = StageAdmission.of(waiting, GROUP, PausedDispatch.NONE.limitedBy(limiter), T0);

        assertEquals(List.of("await-approval"), names(admission.admitted()));
        assertEquals(T0.plusSeconds(30), admission.notDueUntil());
        assertFalse(admission.holdsAny());
        assertEquals(List.of(), limiter.asked, "neither the step in its backoff nor the wait takes a slot");

        StageAdmission allPaused = StageAdmission.of(waiting("await-approval"), GROUP,
                new PausedDispatch(Set.of(PausedDispatch.ALL)), T0);
        assertEquals(List.of("await-approval"), names(allPaused.admitted()), "a pause of everything holds no event wait");
        assertNull(allPaused.parkedOn());
    }

    private static StepDefinition step(String name) {
        return new StepDefinition(name, name, "undo-" + name, Duration.ofSeconds(30), 2, null, null, OnExhausted.COMPENSATE);
    }

    /** The steps named, not started, of a new order. */
    private static List<StepState> waiting(String... names) {
        return OrderState.pending("o-1", GROUP.name(), List.of(names), T0, Actor.of(Actor.Kind.submission, "n")).steps();
    }

    private static List<String> names(List<StepState> steps) {
        return steps.stream().map(StepState::name).toList();
    }

    /** Refuses the operations named until their instant, admits the others; remembers what it was asked. */
    private static final class Limiter implements FlowLimiter {
        private final Map<String, OffsetDateTime> refused;
        private final List<String> asked = new ArrayList<>();

        Limiter(Map<String, OffsetDateTime> refused) {
            this.refused = refused;
        }

        @Override
        public boolean limits(String operation) {
            return true;
        }

        @Override
        public OffsetDateTime admit(String operation, OffsetDateTime now) {
            asked.add(operation);
            return refused.get(operation);
        }
    }
}
