package io.overseer.workflow;

import io.overseer.platform.Clocks;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.EJB;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The task types this deployment runs: the built-in definitions (META-INF/overseer/workflows.json),
 * plus or replaced by those in the file named by {@code overseer.workflows.file}. Loaded and validated
 * at deployment: a malformed definition fails the deployment with a message naming what is wrong.
 *
 * <p>Definitions are versioned ({@link WorkflowDefinition#version()}). New orders take the current
 * definition of their workflow; an order runs under the version it was submitted with until it ends, so
 * changing a definition file never changes an order in flight. Each current version is stored at
 * deployment (V12); a version an order names but this deployment's files do not hold is read from there
 * (those of unfinished orders at deployment, checked with the agents by {@code RemoteServices}; any other
 * when first needed, e.g. one a newer instance recorded during a rolling upgrade).
 */
@Startup
@Singleton
@DependsOn("SchemaMigration") // stores its versions: the schema must exist (a fresh database)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class WorkflowRegistry {

    private static final Logger LOG = Logger.getLogger(WorkflowRegistry.class.getName());
    static final String BUILT_IN = "META-INF/overseer/workflows.json";
    public static final String DEFAULT_WORKFLOW = "order";

    @Inject
    @ConfigProperty(name = "overseer.workflows.file")
    Optional<String> extraFile;

    @Inject
    @ConfigProperty(name = "overseer.scheduler.complete-by", defaultValue = "PT30S")
    Duration defaultCompleteBy;

    @Inject
    @ConfigProperty(name = "overseer.supervisor.max-retries", defaultValue = "3")
    int defaultMaxRetries;

    @EJB
    WorkflowVersions stored;
    @Inject
    Clocks clocks;
    @Inject
    Event<WorkflowDeployed> deployed;

    private volatile Map<String, WorkflowDefinition> current = Map.of();
    /** Every version this instance has run or checked, current ones included; keyed by {@link Version}. */
    private final Map<Version, WorkflowDefinition> versions = new ConcurrentHashMap<>();
    private volatile List<WorkflowVersions.InUse> inUse = List.of();
    /** The current definitions and the versions unfinished orders kept, as found at deployment. */
    private volatile List<WorkflowDefinition> running = List.of();

    private record Version(String workflow, String version) {
    }

    @PostConstruct
    void load() {
        WorkflowParser parser = parser();
        Map<String, WorkflowDefinition> loaded = new TreeMap<>();
        parser.parse(builtIn(), BUILT_IN).forEach(w -> loaded.put(w.name(), w));
        extraFile.filter(file -> !file.isBlank()).ifPresent(file -> parser.parse(read(Path.of(file)), file)
                .forEach(w -> loaded.put(w.name(), w)));
        if (!loaded.containsKey(DEFAULT_WORKFLOW)) {
            throw new WorkflowDefinitionException("No workflow named '" + DEFAULT_WORKFLOW + "' is defined");
        }
        for (WorkflowDefinition definition : loaded.values()) {
            stored.record(definition, clocks.now());
            deployed.fire(new WorkflowDeployed(definition)); // before inUse(): the orders it pins count there
            versions.put(new Version(definition.name(), definition.version()), definition);
            LOG.info(() -> "Workflow " + definition.label() + ": " + definition.outline());
        }
        current = Map.copyOf(loaded);
        inUse = stored.inUse();
        List<WorkflowDefinition> running = new ArrayList<>(current.values());
        for (WorkflowVersions.InUse use : inUse) {
            WorkflowDefinition definition;
            try {
                definition = get(use.workflow(), use.version());
            } catch (WorkflowDefinitionException e) {
                throw new WorkflowDefinitionException(e.getMessage() + "; unfinished orders run it: " + use.orders()
                        + " (" + use.firstOrders() + (use.orders() > 5 ? ", …" : "") + ")");
            }
            if (!running.contains(definition)) {
                running.add(definition);
                LOG.info(() -> "Workflow " + definition.label() + " kept for " + use.orders() + " unfinished orders: "
                        + definition.outline());
            }
        }
        this.running = List.copyOf(running);
    }

    /** The current definition of a workflow, for a new order. */
    public Optional<WorkflowDefinition> find(String name) {
        return Optional.ofNullable(current.get(name));
    }

    /** The current definitions. */
    public Collection<WorkflowDefinition> all() {
        return current.values();
    }

    /**
     * Every definition orders may run now: the current ones and the versions unfinished orders kept
     * (as found at deployment), for checks that must cover every operation an order may still call.
     */
    public Collection<WorkflowDefinition> running() {
        return running;
    }

    /** The unfinished orders that used {@code definition} at deployment, for an error to name; empty if none. */
    public Optional<WorkflowVersions.InUse> usersOf(WorkflowDefinition definition) {
        return inUse.stream().filter(use -> use.workflow().equals(definition.name())
                && use.version().equals(definition.version())).findFirst();
    }

    /**
     * The definition an order runs under: the version it records, or, for an order stored before
     * versions and not pinned (finished by then), the current one. A version no instance ever stored
     * cannot be named (the foreign key); a stored one that does not parse or hash back to itself fails
     * loudly rather than running an order under something else.
     */
    public WorkflowDefinition get(String name, String version) {
        if (version == null) {
            return find(name).orElseThrow(() -> new WorkflowDefinitionException(
                    "Workflow '" + name + "' is used by stored orders but not defined in this deployment"));
        }
        return versions.computeIfAbsent(new Version(name, version), key -> {
            String json = stored.definition(name, version).orElseThrow(() -> new WorkflowDefinitionException(
                    "Workflow " + name + "@" + version + " is named by stored orders but was never stored"));
            WorkflowDefinition definition = parser().parseOne(json, "stored workflow " + name + "@" + version);
            if (!definition.version().equals(version)) {
                throw new WorkflowDefinitionException("Stored workflow " + name + "@" + version
                        + " reads back as version " + definition.version() + "; it was changed in the database");
            }
            return definition;
        });
    }

    /** Stored definitions have every field written out; these defaults only fill the files' omissions. */
    private WorkflowParser parser() {
        return new WorkflowParser(defaultCompleteBy, defaultMaxRetries);
    }

    private static String builtIn() {
        try (InputStream in = WorkflowRegistry.class.getClassLoader().getResourceAsStream(BUILT_IN)) {
            if (in == null) {
                throw new WorkflowDefinitionException(BUILT_IN + " is missing from the deployment");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new WorkflowDefinitionException("overseer.workflows.file " + file + " cannot be read: " + e);
        }
    }
}
