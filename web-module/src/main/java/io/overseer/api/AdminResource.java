package io.overseer.api;

import io.overseer.admin.AdminQueries;
import io.overseer.admin.AuditLog;
import io.overseer.admin.ClusterQueries;
import io.overseer.admin.DispatchPauses;
import io.overseer.admin.StoreSize;
import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.messaging.Courier;
import io.overseer.messaging.Destinations;
import io.overseer.messaging.QueueStats;
import io.overseer.platform.Clocks;
import io.overseer.statestore.ProcessState;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.overseer.submission.OrderRequest;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The console's overview, the caller's roles, dispatch pauses, the supervisor and instances, and the
 * audit log (docs/console.md). Reads need role viewer or operator, actions role operator (web.xml).
 */
@Path("admin")
@Tag(name = "admin")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AdminResource {

    /** Something an operator should look at. Severity: critical or warning. */
    @JsonbNillable
    @JsonbPropertyOrder({"kind", "severity", "message", "orderId"})
    public record Alert(String kind, String severity, String message, String orderId) {
    }

    @JsonbNillable
    @JsonbPropertyOrder({"at", "counts", "lastHour", "oldestWaiting", "alerts", "queues", "pauses", "flowLimits",
            "brokerConsole", "store"})
    public record Overview(OffsetDateTime at, Map<ProcessState, Long> counts, List<AdminQueries.Minute> lastHour,
                           AdminQueries.Waiting oldestWaiting, List<Alert> alerts, List<QueueStats> queues,
                           List<DispatchPauses.Pause> pauses, List<AdminQueries.FlowUse> flowLimits,
                           String brokerConsole, StoreSize.Size store) {
    }

    @JsonbPropertyOrder({"name", "roles"})
    public record Caller(String name, List<String> roles) {
    }

    @JsonbPropertyOrder({"paused", "operations"})
    public record Pauses(List<DispatchPauses.Pause> paused, List<String> operations) {
    }

    /** A pause request: what to pause (an operation, or "all") and why. */
    public record PauseRequest(@NotBlank @Size(max = 64) String scope,
                               @NotBlank @Size(max = 500) @Pattern(regexp = OrderRequest.TEXT,
                                       message = OrderRequest.TEXT_MESSAGE) String reason) {
    }

    @JsonbNillable
    @JsonbPropertyOrder({"supervisor", "instances", "database"})
    public record Instances(ClusterQueries.Lease supervisor, List<ClusterQueries.Instance> instances,
                            ClusterQueries.DatabaseServer database) {
    }

    /** How many orders in Error the overview names one by one; the count says how many there are. */
    private static final int ERRORS_LISTED = 10;

    @Inject
    AdminQueries queries;
    @Inject
    ClusterQueries cluster;
    @Inject
    DispatchPauses pauses;
    @Inject
    AuditLog audit;
    @Inject
    Courier courier;
    @Inject
    BrokerQueues brokerQueues;
    @Inject
    Clocks clocks;
    @Inject
    StoreSize storeSize;
    @Inject
    @ConfigProperty(name = "overseer.console.broker-console-url")
    Optional<String> brokerConsole;
    @Context
    SecurityContext security;

    @GET
    @Path("overview")
    @Operation(summary = "Counts by state, the last hour per minute, alerts, the oldest waiting order, pauses, the state store's size (role viewer)")
    @APIResponse(responseCode = "200", description = "The overview")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Overview overview() {
        Map<ProcessState, Long> counts = queries.counts();
        List<DispatchPauses.Pause> paused = pauses.paused();
        List<Alert> alerts = new ArrayList<>();
        List<QueueStats> depths = List.of();
        try {
            depths = brokerQueues.queues();
            depths.stream().filter(queue -> queue.name().equals(Destinations.DEAD_LETTERS) && queue.messageCount() > 0)
                    .forEach(dlq -> alerts.add(new Alert("dead-letters", "warning", dlq.messageCount()
                            + " dead-lettered messages wait in " + dlq.name() + " (see Queues)", null)));
        } catch (BrokerUnavailableException e) {
            alerts.add(new Alert("broker-unreachable", "critical", "Queue counts unavailable: " + e.getMessage(), null));
        }
        alerts.addAll(alerts(counts, paused));
        return new Overview(clocks.now(), counts, queries.lastHour(), queries.oldestWaiting().orElse(null),
                alerts, depths, paused, queries.flowLimits(), brokerConsole.filter(url -> !url.isBlank()).orElse(null),
                storeSize.size());
    }

    private List<Alert> alerts(Map<ProcessState, Long> counts, List<DispatchPauses.Pause> paused) {
        List<Alert> alerts = new ArrayList<>();
        if (courier.isStalled()) {
            alerts.add(new Alert("broker-unreachable", "critical",
                    "This instance cannot send to the broker: dispatch and replies wait until it is back", null));
        }
        OffsetDateTime now = clocks.now();
        cluster.supervisorLease().filter(lease -> lease.holder() == null || lease.expiresAt().isBefore(now))
                .ifPresent(lease -> alerts.add(new Alert("supervisor-idle", "critical",
                        "No instance holds the supervisor lease: expired attempts are not recovered", null)));
        long inError = counts.getOrDefault(ProcessState.Error, 0L);
        queries.inError(ERRORS_LISTED).forEach(order -> alerts.add(new Alert("order-in-error", "critical",
                "Order in Error since " + order.since() + ": " + order.lastError(), order.orderId())));
        if (inError > ERRORS_LISTED) {
            alerts.add(new Alert("order-in-error", "critical",
                    (inError - ERRORS_LISTED) + " more orders in Error (filter the orders by state Error)", null));
        }
        paused.forEach(pause -> alerts.add(new Alert("dispatch-paused", "warning", "Dispatch of " + pause.scope()
                + " paused by " + pause.pausedBy() + " (" + pause.reason() + "); " + pause.waiting() + " orders wait",
                null)));
        return alerts;
    }

    @GET
    @Path("whoami")
    @Operation(summary = "The caller's name and console roles (role viewer)")
    @APIResponse(responseCode = "200", description = "The caller")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Caller whoami() {
        List<String> roles = new ArrayList<>();
        for (String role : List.of("viewer", "operator", "submitter")) {
            if (security.isUserInRole(role)) {
                roles.add(role);
            }
        }
        return new Caller(security.getUserPrincipal().getName(), roles);
    }

    @GET
    @Path("pauses")
    @Operation(summary = "What is paused, and the operations that can be (role viewer)")
    @APIResponse(responseCode = "200", description = "The pauses")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Pauses pauses() {
        return new Pauses(pauses.paused(), pauses.operations());
    }

    @POST
    @Path("pauses")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Pause dispatch of one operation, or of everything (scope \"all\") (role operator)",
            description = "Attempts already running finish; no new attempt calling it starts. Orders that would "
                    + "call it wait, parked, without failing, until it is resumed. Pausing what is paused changes nothing.")
    @APIResponse(responseCode = "200", description = "What is paused now")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Pauses pause(@NotNull @Valid PauseRequest request) {
        requirePausable(request.scope());
        pauses.pause(request.scope(), Operators.name(security), request.reason());
        return pauses();
    }

    @POST
    @Path("pauses/{scope}/resume")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Resume dispatch of an operation, or of everything; waiting orders are announced (role operator)")
    @APIResponse(responseCode = "200", description = "What is paused now")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public Pauses resume(@PathParam("scope") String scope, @NotNull @Valid OperatorResource.Action action) {
        // No check that a workflow names the scope: a pause of an operation a deployment renamed must end too.
        if (!pauses.resume(scope, Operators.name(security), action.reason()).changed()) {
            throw new NotFoundException("Dispatch of " + scope + " is not paused");
        }
        return pauses();
    }

    private void requirePausable(String scope) {
        if (!pauses.isPausable(scope)) {
            throw new InvalidRequestException("Nothing to pause by that name", List.of(new Problem.FieldError("scope",
                    "must be \"all\" or one of the workflows' operations: " + String.join(", ", pauses.operations()))));
        }
    }

    @GET
    @Path("instances")
    @Operation(summary = "The supervisor lease, its last sweep that found work, the instances, and the database server"
            + " they reach with its standbys (role viewer)")
    @APIResponse(responseCode = "200", description = "The supervisor and instances")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Instances instances() {
        return new Instances(cluster.supervisorLease().orElse(null), cluster.instances(), cluster.databaseServer());
    }

    @GET
    @Path("audit")
    @Operation(summary = "The operators' audit log, newest first (role viewer)")
    @APIResponse(responseCode = "200", description = "Audit entries")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public List<AuditLog.Entry> audit(@QueryParam("limit") String limit, @QueryParam("before") String before) {
        QueryParameters query = new QueryParameters();
        Integer size = query.limit(limit, 100, 500);
        Long beforeId = query.optional("before", before, Long::valueOf, "must be the id of an audit entry");
        query.validate();
        return audit.newest(size, beforeId);
    }
}
