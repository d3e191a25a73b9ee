package io.overseer.agent;

import io.overseer.agent.api.RemoteService;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;

/**
 * The remote services of this deployment — the coded ones (CDI beans implementing
 * {@link RemoteService}) and the configured generic HTTP ones ({@link HttpServiceConfig}) — each behind
 * its own circuit breaker. Checked at deployment: every operation of every workflow (and every
 * compensation) must be performed by exactly one service, or the deployment fails saying which.
 */
@Startup
@Singleton
@DependsOn("WorkflowRegistry")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class RemoteServices {

    private static final Logger LOG = Logger.getLogger(RemoteServices.class.getName());

    @Inject
    @Any
    Instance<RemoteService> coded;
    @Inject
    Config config;
    @Inject
    WorkflowRegistry workflows;
    @Inject
    AgentMetrics metrics;
    @Inject
    FlowLimits flowLimits;

    private ServiceDirectory directory;
    private Map<String, ServiceCircuit> circuits;
    private final Map<String, ServiceCircuit> routes = new ConcurrentHashMap<>();

    @PostConstruct
    void start() {
        HttpServiceConfig configuration = new HttpServiceConfig(key -> config.getOptionalValue(key, String.class));
        List<RemoteService> services = new ArrayList<>();
        coded.forEach(services::add);
        services.addAll(configuration.httpServices());
        directory = new ServiceDirectory(services);
        circuits = services.stream().collect(Collectors.toUnmodifiableMap(RemoteService::name,
                service -> new ServiceCircuit(service, configuration.circuit(service.name()))));
        circuits.values().forEach(circuit -> metrics.watch(circuit.service().name(), circuit.breaker()));
        workflows.running().forEach(this::check);
        checkLimits();
        services.forEach(service -> LOG.info(() -> "Remote service " + service + " performs "
                + routes.entrySet().stream().filter(e -> e.getValue().service() == service)
                        .map(Map.Entry::getKey).sorted().collect(Collectors.joining(", "))));
    }

    /**
     * Every operation of the definition has its service. A version unfinished orders kept is checked as
     * the current ones are: an order that could not call its next step must stop the deployment, naming
     * the orders, rather than fail each of them later.
     */
    private void check(WorkflowDefinition workflow) {
        try {
            for (StepDefinition step : workflow.steps()) {
                if (step.awaitsEvent()) {
                    continue; // no remote call: nothing to route
                }
                route(step.operation());
                step.compensationOperation().ifPresent(this::route);
            }
        } catch (AgentConfigurationException e) {
            String users = workflows.usersOf(workflow).map(use -> ", used by " + use.orders() + " unfinished orders ("
                    + use.firstOrders() + (use.orders() > 5 ? ", …" : "") + ")").orElse("");
            throw new AgentConfigurationException("Workflow " + workflow.label() + users + ": " + e.getMessage());
        }
    }

    /** A flow limit on an operation that no workflow calls is a typo: it would limit nothing. */
    private void checkLimits() {
        java.util.Set<String> called = new java.util.HashSet<>();
        for (WorkflowDefinition workflow : workflows.running()) {
            for (StepDefinition step : workflow.steps()) {
                if (step.operation() != null) {
                    called.add(step.operation());
                }
                step.compensationOperation().ifPresent(called::add);
            }
        }
        for (FlowLimits.FlowLimit limit : flowLimits.all()) {
            if (!called.contains(limit.operation())) {
                throw new AgentConfigurationException(FlowLimits.PREFIX + limit.operation()
                        + ": no workflow calls operation '" + limit.operation() + "'");
            }
            LOG.info(() -> "Flow limit of " + limit.operation() + ": " + (limit.inFlight() == null ? "" : limit.inFlight()
                    + " in flight") + (limit.inFlight() != null && limit.perSecond() != null ? ", " : "")
                    + (limit.perSecond() == null ? "" : limit.perSecond() + " starts per second") + ", across all instances");
        }
    }

    /** The service that performs {@code operation}, behind its circuit. */
    public ServiceCircuit route(String operation) {
        return routes.computeIfAbsent(operation, op -> {
            RemoteService service = directory.serviceFor(op);
            if (service instanceof HttpRemoteService http) {
                http.classificationOf(op);   // a bad per-operation setting fails now, not on the first call
            }
            return circuits.get(service.name());
        });
    }
}
