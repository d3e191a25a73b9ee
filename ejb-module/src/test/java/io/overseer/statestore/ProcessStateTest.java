package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ProcessStateTest {

    @Test
    void onlyTheStatesNoTransitionLeavesAreSettledNotErrorWhichAnOperatorMayResubmit() {
        assertEquals(EnumSet.of(ProcessState.Processed, ProcessState.Compensated), EnumSet.allOf(ProcessState.class).stream()
                .filter(ProcessState::isSettled).collect(Collectors.toCollection(() -> EnumSet.noneOf(ProcessState.class))));
    }

    @Test
    void theTasksTransitions() {
        assertEquals(EnumSet.of(ProcessState.Processing, ProcessState.Compensating), next(ProcessState.Pending));
        assertEquals(EnumSet.of(ProcessState.Processed, ProcessState.Pending, ProcessState.Compensating, ProcessState.Error),
                next(ProcessState.Processing));
        assertEquals(EnumSet.of(ProcessState.Compensated, ProcessState.Error), next(ProcessState.Compensating));
        assertEquals(EnumSet.of(ProcessState.Pending, ProcessState.Compensating), next(ProcessState.Error),
                "out of Error only by an operator's resubmit or cancel");
        assertEquals(Set.of(), next(ProcessState.Processed));
        assertEquals(Set.of(), next(ProcessState.Compensated));
    }

    private static Set<ProcessState> next(ProcessState from) {
        return EnumSet.allOf(ProcessState.class).stream().filter(from::leadsTo).collect(Collectors.toSet());
    }
}
