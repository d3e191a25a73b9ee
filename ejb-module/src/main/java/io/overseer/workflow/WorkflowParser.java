package io.overseer.workflow;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads workflow definitions from JSON and refuses anything doubtful with a message that says where:
 * a typo in a definition must stop the deployment, not surface as a stuck order later.
 *
 * <pre>{"workflows": [{"name": "order", "steps": [
 *     {"name": "charge-payment", "compensation": "refund-payment", "completeBy": "PT30S",
 *      "maxRetries": 3, "backoff": {"initial": "PT1S", "cap": "PT1M"}, "onExhausted": "compensate"},
 *     {"group": "fulfil", "steps": [{"name": "arrange-shipping"}, {"name": "issue-invoice"}]}]}]}</pre>
 *
 * A {@code group} element holds two or more steps that run in parallel; it cannot hold an event step or
 * another group. (A definition is a list, so it cannot hold a cycle.)
 *
 * <p>Long because every field's check and message live here, in the order of the format, so that the format has
 * one reader.
 */
public final class WorkflowParser {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final Set<String> STEP_FIELDS = Set.of("name", "operation", "compensation", "completeBy",
            "maxRetries", "backoff", "onExhausted", "heartbeat", "event");
    /** What a step that waits for an event may say: it calls nothing, so it has no retries, undo or heartbeat. */
    private static final Set<String> EVENT_STEP_FIELDS = Set.of("name", "event", "completeBy", "onExhausted", "maxRetries",
            "compensation");

    private final Duration defaultCompleteBy;
    private final int defaultMaxRetries;

    /** Steps that do not say otherwise get these complete-by and retry limits. */
    public WorkflowParser(Duration defaultCompleteBy, int defaultMaxRetries) {
        this.defaultCompleteBy = defaultCompleteBy;
        this.defaultMaxRetries = defaultMaxRetries;
    }

    public List<WorkflowDefinition> parse(String json, String source) {
        JsonObject root;
        try {
            root = Json.createReader(new StringReader(json)).readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new WorkflowDefinitionException(source + ": not a JSON object: " + e.getMessage());
        }
        requireOnly(root, Set.of("workflows"), source);
        List<WorkflowDefinition> workflows = new ArrayList<>();
        for (JsonValue value : array(root, "workflows", source)) {
            workflows.add(workflow(object(value, source + ": workflows[]"), source));
        }
        return workflows;
    }

    /** One workflow object, as {@link WorkflowDefinition#canonicalJson()} writes it (a stored version). */
    public WorkflowDefinition parseOne(String json, String source) {
        try {
            return workflow(Json.createReader(new StringReader(json)).readObject(), source);
        } catch (JsonException | IllegalStateException e) {
            throw new WorkflowDefinitionException(source + ": not a JSON object: " + e.getMessage());
        }
    }

    private WorkflowDefinition workflow(JsonObject json, String source) {
        String name = name(json, "name", source + ": workflow");
        String where = source + ": workflow '" + name + "'";
        requireOnly(json, Set.of("name", "steps"), where);
        List<StepDefinition> steps = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Set<String> groups = new HashSet<>();
        for (JsonValue value : array(json, "steps", where)) {
            JsonObject element = object(value, where + ": steps[]");
            List<StepDefinition> stage = element.containsKey("group") ? group(element, where, groups) : List.of(step(element, where));
            for (StepDefinition step : stage) {
                if (!seen.add(step.name())) {
                    throw new WorkflowDefinitionException(where + ": step '" + step.name() + "' appears twice");
                }
                steps.add(step);
            }
        }
        if (steps.isEmpty()) {
            throw new WorkflowDefinitionException(where + ": needs at least one step");
        }
        // An event is delivered by name: two steps waiting for one name could not be told apart.
        Set<String> events = new HashSet<>();
        for (StepDefinition step : steps) {
            if (step.awaitsEvent() && !events.add(step.event())) {
                throw new WorkflowDefinitionException(where + ": event '" + step.event() + "' is awaited by more than one step");
            }
        }
        // The idempotency key is order + operation: an operation used twice in one workflow would be
        // answered with the first use's result instead of being applied.
        Set<String> operations = new HashSet<>();
        for (StepDefinition step : steps) {
            for (String operation : new String[] {step.operation(), step.compensation()}) {
                if (operation != null && !operations.add(operation)) {
                    throw new WorkflowDefinitionException(where + ": operation '" + operation
                            + "' is used more than once (as a step or a compensation)");
                }
            }
        }
        return new WorkflowDefinition(name, steps);
    }

    /**
     * A parallel group: its steps run at once. Each is a remote call with its own deadline and retries; a
     * wait for an event is refused in a group (an approval gates what follows it: put it before or after).
     */
    private List<StepDefinition> group(JsonObject json, String workflow, Set<String> groups) {
        String name = name(json, "group", workflow + ": group");
        String where = workflow + ", group '" + name + "'";
        requireOnly(json, Set.of("group", "steps"), where);
        if (!groups.add(name)) {
            throw new WorkflowDefinitionException(where + ": appears twice");
        }
        List<StepDefinition> steps = new ArrayList<>();
        for (JsonValue value : array(json, "steps", where)) {
            JsonObject element = object(value, where + ": steps[]");
            if (element.containsKey("group")) {
                throw new WorkflowDefinitionException(where + ": groups cannot nest (group '" + element.get("group") + "' inside it)");
            }
            StepDefinition step = step(element, where);
            if (step.awaitsEvent()) {
                throw new WorkflowDefinitionException(where + ", step '" + step.name()
                        + "': waits for an event, which a parallel group cannot hold (place it before or after the group)");
            }
            steps.add(step.inGroup(name));
        }
        if (steps.size() < 2) {
            throw new WorkflowDefinitionException(where + ": a parallel group needs at least two steps, has " + steps.size());
        }
        return steps;
    }

    private StepDefinition step(JsonObject json, String workflow) {
        String name = name(json, "name", workflow + ": step");
        String where = workflow + ", step '" + name + "'";
        requireOnly(json, STEP_FIELDS, where);
        if (json.containsKey("event")) {
            return eventStep(json, name, where);
        }
        String operation = json.containsKey("operation") ? name(json, "operation", where) : name;
        String compensation = json.containsKey("compensation") ? string(json, "compensation", where) : "none";
        if (!compensation.equals("none") && !NAME.matcher(compensation).matches()) {
            throw new WorkflowDefinitionException(where + ": compensation must be an operation name or \"none\"");
        }
        Duration completeBy = json.containsKey("completeBy") ? duration(json, "completeBy", where) : defaultCompleteBy;
        int maxRetries = json.containsKey("maxRetries") ? integer(json, "maxRetries", where) : defaultMaxRetries;
        Duration initial = null;
        Duration cap = null;
        if (json.containsKey("backoff")) {
            JsonObject backoff = object(json.get("backoff"), where + ": backoff");
            requireOnly(backoff, Set.of("initial", "cap"), where + ": backoff");
            initial = duration(backoff, "initial", where + ": backoff");
            cap = backoff.containsKey("cap") ? duration(backoff, "cap", where + ": backoff") : initial.multipliedBy(32);
            if (cap.compareTo(initial) < 0) {
                throw new WorkflowDefinitionException(where + ": backoff cap is shorter than its initial wait");
            }
        }
        Duration heartbeat = json.containsKey("heartbeat") ? duration(json, "heartbeat", where) : null;
        if (heartbeat != null && heartbeat.compareTo(completeBy) >= 0) {
            throw new WorkflowDefinitionException(where + ": heartbeat (" + heartbeat + ") must be shorter than completeBy ("
                    + completeBy + ")");
        }
        return new StepDefinition(name, operation, compensation.equals("none") ? null : compensation, completeBy,
                maxRetries, initial, cap, onExhausted(json, where), heartbeat);
    }

    /**
     * A step that waits for an external event. It makes no remote call, so an operation, a compensation,
     * retries, a backoff or a heartbeat would mean nothing and are refused rather than ignored; and it
     * names its own complete-by: the default, meant for one remote call, is no measure of how long a
     * person or another system takes to answer.
     */
    private StepDefinition eventStep(JsonObject json, String name, String where) {
        for (String field : json.keySet()) {
            if (!EVENT_STEP_FIELDS.contains(field)) {
                throw new WorkflowDefinitionException(where + ": waits for an event and calls no remote operation, so '"
                        + field + "' is not allowed");
            }
        }
        String event = name(json, "event", where);
        if (!json.containsKey("completeBy")) {
            throw new WorkflowDefinitionException(where + ": waits for event '" + event
                    + "' and needs its own completeBy (how long to wait for it)");
        }
        if (json.containsKey("compensation") && !"none".equals(string(json, "compensation", where))) {
            throw new WorkflowDefinitionException(where + ": waits for an event and has nothing to undo: compensation must be \"none\"");
        }
        if (json.containsKey("maxRetries") && integer(json, "maxRetries", where) != 0) {
            throw new WorkflowDefinitionException(where + ": waits for an event, which cannot be retried: maxRetries must be 0");
        }
        return StepDefinition.awaiting(name, event, duration(json, "completeBy", where), onExhausted(json, where));
    }

    private static StepDefinition.OnExhausted onExhausted(JsonObject json, String where) {
        String value = json.containsKey("onExhausted") ? string(json, "onExhausted", where) : "compensate";
        return switch (value) {
            case "compensate" -> StepDefinition.OnExhausted.COMPENSATE;
            case "error" -> StepDefinition.OnExhausted.ERROR;
            default -> throw new WorkflowDefinitionException(where + ": onExhausted must be \"compensate\" or \"error\", was \"" + value + "\"");
        };
    }

    private static void requireOnly(JsonObject json, Set<String> allowed, String where) {
        for (String key : json.keySet()) {
            if (!allowed.contains(key)) {
                throw new WorkflowDefinitionException(where + ": unknown field '" + key + "' (allowed: " + new java.util.TreeSet<>(allowed) + ")");
            }
        }
    }

    private static JsonArray array(JsonObject json, String key, String where) {
        if (!(json.get(key) instanceof JsonArray array)) {
            throw new WorkflowDefinitionException(where + ": '" + key + "' must be an array");
        }
        return array;
    }

    private static JsonObject object(JsonValue value, String where) {
        if (!(value instanceof JsonObject object)) {
            throw new WorkflowDefinitionException(where + ": must be an object");
        }
        return object;
    }

    private static String string(JsonObject json, String key, String where) {
        if (json.get(key) == null || json.get(key).getValueType() != JsonValue.ValueType.STRING) {
            throw new WorkflowDefinitionException(where + ": '" + key + "' must be a string");
        }
        return json.getString(key);
    }

    private static String name(JsonObject json, String key, String where) {
        String value = string(json, key, where);
        if (!NAME.matcher(value).matches()) {
            throw new WorkflowDefinitionException(where + ": '" + key + "' must match " + NAME.pattern() + ", was \"" + value + "\"");
        }
        return value;
    }

    private static int integer(JsonObject json, String key, String where) {
        if (json.get(key).getValueType() != JsonValue.ValueType.NUMBER || !json.getJsonNumber(key).isIntegral()
                || json.getInt(key) < 0) {
            throw new WorkflowDefinitionException(where + ": '" + key + "' must be a whole number >= 0");
        }
        return json.getInt(key);
    }

    private static Duration duration(JsonObject json, String key, String where) {
        try {
            Duration value = Duration.parse(string(json, key, where));
            if (value.isNegative() || value.isZero()) {
                throw new WorkflowDefinitionException(where + ": '" + key + "' must be positive");
            }
            return value;
        } catch (DateTimeParseException e) {
            throw new WorkflowDefinitionException(where + ": '" + key + "' must be an ISO-8601 duration such as PT30S");
        }
    }
}
