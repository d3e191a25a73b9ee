package io.overseer.workflow;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A task type: an ordered list of steps, run in order and undone in reverse order of completion. Consecutive
 * steps may form a parallel group ({@link StepDefinition#group()}): they run at once, and the next step waits
 * for all of them.
 *
 * <p>{@code version} names the definition's content: the first 12 hex digits of the SHA-256 of its
 * {@link #canonicalJson() canonical form}, every default written out. Any change an order could notice
 * (a step added, removed, renamed or moved, another undo, deadline or retry policy) is another version,
 * and each order runs under the version it was submitted with (see {@link WorkflowRegistry}).
 */
public record WorkflowDefinition(String name, List<StepDefinition> steps, String version) {

    public WorkflowDefinition {
        steps = List.copyOf(steps);
        java.util.Set<String> closed = new java.util.HashSet<>();
        for (int i = 0; i < steps.size(); i++) {
            String group = steps.get(i).group();
            if (group != null && closed.contains(group)) {
                throw new IllegalArgumentException("Workflow " + name + ": the steps of group " + group + " are not consecutive");
            }
            if (i > 0 && steps.get(i - 1).group() != null && !steps.get(i - 1).group().equals(group)) {
                closed.add(steps.get(i - 1).group());
            }
        }
    }

    /** The definition of these steps, its version computed from them. */
    public WorkflowDefinition(String name, List<StepDefinition> steps) {
        this(name, steps, versionOf(canonicalJson(name, steps)));
    }

    public List<String> stepNames() {
        return steps.stream().map(StepDefinition::name).toList();
    }

    public StepDefinition step(String stepName) {
        return steps.stream().filter(step -> step.name().equals(stepName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Workflow " + label() + " has no step " + stepName));
    }

    /**
     * The steps that run together with {@code stepName}, in workflow order: its parallel group, or the step
     * alone. The step after a group starts only when every step of the group has completed.
     */
    public List<String> stage(String stepName) {
        String group = step(stepName).group();
        if (group == null) {
            return List.of(stepName);
        }
        return steps.stream().filter(step -> group.equals(step.group())).map(StepDefinition::name).toList();
    }

    /** The steps in order, a group's in brackets: {@code reserve → [ship ∥ invoice] → notify}, for logs. */
    public String outline() {
        List<String> stages = new java.util.ArrayList<>();
        for (StepDefinition step : steps) {
            if (step.group() == null) {
                stages.add(step.name());
            } else if (stage(step.name()).get(0).equals(step.name())) {
                stages.add("[" + String.join(" ∥ ", stage(step.name())) + "]");
            }
        }
        return String.join(" → ", stages);
    }

    /** {@code name@version}, as logs, the history and the console name a definition. */
    public String label() {
        return name + "@" + version;
    }

    /**
     * The definition as the parser reads it, every field written out in a fixed order: stored with the
     * version, so that any instance can run an order of a version its own files no longer hold, and
     * hashed for the version. Fields added later are written only when they differ from what older
     * definitions meant, so that an upgrade leaves the versions of unchanged definitions as they were.
     */
    public String canonicalJson() {
        return canonicalJson(name, steps);
    }

    private static String canonicalJson(String name, List<StepDefinition> steps) {
        JsonArrayBuilder stepArray = Json.createArrayBuilder();
        // A parallel group is written as the parser reads it, {"group": name, "steps": [...]}, in its place.
        JsonArrayBuilder groupSteps = null;
        for (int i = 0; i < steps.size(); i++) {
            StepDefinition step = steps.get(i);
            JsonObjectBuilder json = Json.createObjectBuilder().add("name", step.name());
            if (step.awaitsEvent()) {
                json.add("event", step.event());
            } else {
                json.add("operation", step.operation());
            }
            json.add("compensation", step.compensationOperation().orElse("none"))
                    .add("completeBy", step.completeBy().toString())
                    .add("maxRetries", step.maxRetries());
            if (step.backoffInitial() != null) {
                json.add("backoff", Json.createObjectBuilder()
                        .add("initial", step.backoffInitial().toString())
                        .add("cap", step.backoffCap().toString()));
            }
            json.add("onExhausted", step.onExhausted().name().toLowerCase(java.util.Locale.ROOT));
            if (step.heartbeat() != null) {
                json.add("heartbeat", step.heartbeat().toString());
            }
            if (step.group() == null) {
                stepArray.add(json);
                continue;
            }
            groupSteps = groupSteps == null ? Json.createArrayBuilder() : groupSteps;
            groupSteps.add(json);
            if (i + 1 == steps.size() || !step.group().equals(steps.get(i + 1).group())) {
                stepArray.add(Json.createObjectBuilder().add("group", step.group()).add("steps", groupSteps));
                groupSteps = null;
            }
        }
        return Json.createObjectBuilder().add("name", name).add("steps", stepArray).build().toString();
    }

    private static String versionOf(String canonicalJson) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonicalJson.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
