package io.overseer.workflow;

import java.util.List;

/** A task type: an ordered list of steps, run in order and undone in reverse. */
public record WorkflowDefinition(String name, List<StepDefinition> steps) {

    public WorkflowDefinition {
        steps = List.copyOf(steps);
    }

    public List<String> stepNames() {
        return steps.stream().map(StepDefinition::name).toList();
    }

    public StepDefinition step(String stepName) {
        return steps.stream().filter(step -> step.name().equals(stepName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Workflow " + name + " has no step " + stepName));
    }
}
