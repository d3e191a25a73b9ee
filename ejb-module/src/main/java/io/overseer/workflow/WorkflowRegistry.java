package io.overseer.workflow;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The task types this deployment runs: the built-in definitions (META-INF/overseer/workflows.json),
 * plus or replaced by those in the file named by {@code overseer.workflows.file}. Loaded and validated
 * at deployment: a malformed definition fails the deployment with a message naming what is wrong.
 */
@Startup
@Singleton
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

    private volatile Map<String, WorkflowDefinition> workflows = Map.of();

    @PostConstruct
    void load() {
        WorkflowParser parser = new WorkflowParser(defaultCompleteBy, defaultMaxRetries);
        Map<String, WorkflowDefinition> loaded = new TreeMap<>();
        parser.parse(builtIn(), BUILT_IN).forEach(w -> loaded.put(w.name(), w));
        extraFile.filter(file -> !file.isBlank()).ifPresent(file -> parser.parse(read(Path.of(file)), file)
                .forEach(w -> loaded.put(w.name(), w)));
        if (!loaded.containsKey(DEFAULT_WORKFLOW)) {
            throw new WorkflowDefinitionException("No workflow named '" + DEFAULT_WORKFLOW + "' is defined");
        }
        workflows = Map.copyOf(loaded);
        loaded.values().forEach(w -> LOG.info(() -> "Workflow " + w.name() + ": " + String.join(" → ", w.stepNames())));
    }

    public Optional<WorkflowDefinition> find(String name) {
        return Optional.ofNullable(workflows.get(name));
    }

    public Collection<WorkflowDefinition> all() {
        return workflows.values();
    }

    /** The definition of a workflow that records already name; its absence is a configuration error. */
    public WorkflowDefinition get(String name) {
        return find(name).orElseThrow(() -> new WorkflowDefinitionException(
                "Workflow '" + name + "' is used by stored orders but not defined in this deployment"));
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
