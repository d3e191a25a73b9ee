package io.overseer.admin;

import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import io.overseer.workflow.WorkflowVersions;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The workflow definitions as the console draws them (docs/console.md): each workflow with its current
 * version and every version an instance ever stored, and one version's steps with everything that decides
 * how they run — operation or event wait, parallel group, compensation, deadline, retry policy.
 * Reads only: the registry's definitions and the stored versions' table.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class WorkflowCatalog {

    /** A version of a workflow: when it was first stored, and whether new orders take it now. */
    @JsonbNillable
    @JsonbPropertyOrder({"version", "firstSeen", "current"})
    public record Version(String version, OffsetDateTime firstSeen, boolean current) {
    }

    /** A workflow: its current version (null if this deployment no longer defines it) and all versions, oldest first. */
    @JsonbNillable
    @JsonbPropertyOrder({"name", "current", "outline", "versions"})
    public record Workflow(String name, String current, String outline, List<Version> versions) {
    }

    /** A retry policy's backoff: the wait before the first retry, doubling up to the cap (ISO-8601). */
    public record Backoff(String initial, String cap) {
    }

    /**
     * One step as defined: {@code operation} null for an event wait ({@code event} names it), {@code group} null
     * for a step on its own, {@code compensation} null when nothing undoes it, durations as ISO-8601.
     */
    @JsonbNillable
    @JsonbPropertyOrder({"name", "operation", "event", "group", "compensation", "completeBy", "maxRetries", "backoff",
            "onExhausted", "heartbeat"})
    public record Step(String name, String operation, String event, String group, String compensation,
                       String completeBy, int maxRetries, Backoff backoff, String onExhausted, String heartbeat) {
    }

    @JsonbPropertyOrder({"name", "version", "current", "outline", "steps"})
    public record Definition(String name, String version, boolean current, String outline, List<Step> steps) {
    }

    @Inject
    WorkflowRegistry registry;
    @Inject
    WorkflowVersions versions;

    /** Every workflow defined now or stored, by name. */
    public List<Workflow> workflows() {
        return catalog(registry.all(), versions.stored());
    }

    /** The current definition of a workflow, if this deployment defines it. */
    public Optional<Definition> current(String name) {
        return registry.find(name).map(definition -> view(definition, true));
    }

    /** One version of a workflow, current or stored; empty if no instance ever stored it. */
    public Optional<Definition> version(String name, String version) {
        Optional<WorkflowDefinition> current = registry.find(name).filter(d -> d.version().equals(version));
        if (current.isPresent()) {
            return current.map(definition -> view(definition, true));
        }
        if (versions.definition(name, version).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(view(registry.get(name, version), false));
    }

    /** The current definitions and the stored versions, one entry per workflow name. */
    static List<Workflow> catalog(Collection<WorkflowDefinition> current, List<WorkflowVersions.Stored> stored) {
        Map<String, WorkflowDefinition> byName = new TreeMap<>();
        current.forEach(definition -> byName.put(definition.name(), definition));
        Map<String, List<Version>> versionsOf = new TreeMap<>();
        byName.keySet().forEach(name -> versionsOf.put(name, new ArrayList<>()));
        for (WorkflowVersions.Stored version : stored) {
            WorkflowDefinition now = byName.get(version.workflow());
            boolean isCurrent = now != null && now.version().equals(version.version());
            versionsOf.computeIfAbsent(version.workflow(), name -> new ArrayList<>())
                    .add(new Version(version.version(), version.firstSeen(), isCurrent));
        }
        // A current definition is stored at deployment; listed anyway should that row be missing.
        byName.values().stream().filter(d -> versionsOf.get(d.name()).stream().noneMatch(Version::current))
                .forEach(d -> versionsOf.get(d.name()).add(new Version(d.version(), null, true)));
        return versionsOf.entrySet().stream().map(entry -> {
            WorkflowDefinition now = byName.get(entry.getKey());
            return new Workflow(entry.getKey(), now == null ? null : now.version(), now == null ? null : now.outline(),
                    List.copyOf(entry.getValue()));
        }).toList();
    }

    /** A definition as the console reads it. */
    static Definition view(WorkflowDefinition definition, boolean current) {
        return new Definition(definition.name(), definition.version(), current, definition.outline(),
                definition.steps().stream().map(WorkflowCatalog::view).toList());
    }

    private static Step view(StepDefinition step) {
        return new Step(step.name(), step.operation(), step.event(), step.group(), step.compensation(),
                text(step.completeBy()), step.maxRetries(),
                step.backoffInitial() == null ? null : new Backoff(text(step.backoffInitial()), text(step.backoffCap())),
                step.onExhausted().name().toLowerCase(Locale.ROOT), text(step.heartbeat()));
    }

    private static String text(Duration duration) {
        return Objects.toString(duration, null);
    }
}
