package io.overseer.api;

import io.overseer.admin.ScheduleActions;
import io.overseer.recurring.ScheduleRules;
import io.overseer.recurring.ScheduleSpec;
import io.overseer.recurring.ScheduleView;
import io.overseer.recurring.TickOrders;
import io.overseer.submission.OrderRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Recurring schedules (docs/schedules.md): read by viewers and operators, created, paused, resumed and
 * removed by operators (web.xml's admin constraints), each change audited. A schedule submits its order at
 * each tick, keyed by the schedule and the tick; its orders carry the attributes {@code schedule} and
 * {@code schedule.tick}, by which the orders listing finds them.
 */
@Path("admin/schedules")
@Tag(name = "admin")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class AdminSchedulesResource {

    private static final String WORD = "[a-z-]{1,20}";
    private static final String ISO = "[0-9A-Za-z:.+-]{1,40}";

    /** A schedule as a client writes it; {@link ScheduleSpec} says what each field may hold. */
    public record ScheduleBody(
            @NotNull @Pattern(regexp = ScheduleRules.ID) String id,
            @Size(max = 200) @Pattern(regexp = OrderRequest.TEXT, message = OrderRequest.TEXT_MESSAGE) String cron,
            @Pattern(regexp = ISO) String every,
            @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9_+/-]+") String zone,
            @Pattern(regexp = ISO) String start,
            @Pattern(regexp = ISO) String end,
            @Pattern(regexp = WORD) String missedTicks,
            @Pattern(regexp = ISO) String catchUpWindow,
            @Min(1) @Max(10_000) Integer catchUpMax,
            @Pattern(regexp = WORD) String overlap,
            @Pattern(regexp = WORD) String repeatedTime,
            @Pattern(regexp = WORD) String skippedTime,
            @Pattern(regexp = ISO) String jitter,
            @Min(1) @Max(1000) Integer pauseAfterFailures,
            @NotNull @Valid OrderRequest order) {

        ScheduleSpec spec() {
            return new ScheduleSpec(id, cron, every, zone, start, end, missedTicks, catchUpWindow, catchUpMax, overlap,
                    repeatedTime, skippedTime, jitter);
        }
    }

    /** A backfill's range (ISO-8601 date-times with their offsets, both included) and why. */
    public record Backfill(@NotNull @Pattern(regexp = ISO) String from, @NotNull @Pattern(regexp = ISO) String to,
                           @jakarta.validation.constraints.NotBlank @Size(max = 500)
                           @Pattern(regexp = OrderRequest.TEXT, message = OrderRequest.TEXT_MESSAGE) String reason) {
    }

    /** What a backfill submitted: each tick with its order, new or the tick's earlier one (replayed), or its refusal. */
    public record Backfilled(int ticks, List<TickOrders.TickOrder> orders) {
    }

    /** The schedules, by id. */
    public record Schedules(List<ScheduleView> schedules) {
    }

    @Inject
    ScheduleActions actions;
    @Context
    SecurityContext security;
    @Context
    UriInfo uri;

    @GET
    @Operation(summary = "Every recurring schedule, where it stands and its next ticks (role viewer)")
    @APIResponse(responseCode = "200", description = "The schedules")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Schedules list() {
        return new Schedules(actions.list());
    }

    @GET
    @Path("{id}")
    @Operation(summary = "A recurring schedule, where it stands and its next ticks (role viewer)")
    @APIResponse(responseCode = "200", description = "The schedule")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public ScheduleView get(@PathParam("id") String id) {
        return actions.find(id).orElseThrow(() -> new NotFoundException("No such schedule"));
    }

    @POST
    @Operation(summary = "Create a recurring schedule: its first tick is the first after now or its start (role operator)")
    @APIResponse(responseCode = "201", description = "The schedule")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "409", ref = "Conflict")
    public Response create(@NotNull @Valid ScheduleBody body) {
        try {
            ScheduleView created = actions.create(body.spec(), body.order(), body.pauseAfterFailures(), Operators.name(security))
                    .orElseThrow(() -> new ClientErrorException("A schedule named " + body.id() + " exists", Response.Status.CONFLICT));
            return Response.created(uri.getAbsolutePathBuilder().path(created.id()).build()).entity(created).build();
        } catch (ScheduleActions.ScheduleRefusedException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    @POST
    @Path("{id}/pause")
    @Operation(summary = "Pause a schedule, saying why: its ticks until it resumes are missed ones (role operator)")
    @APIResponse(responseCode = "200", description = "The schedule")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public ScheduleView pause(@PathParam("id") String id, @NotNull @Valid OperatorResource.Action action) {
        return actions.pause(id, action.reason(), Operators.name(security))
                .orElseThrow(() -> new NotFoundException("No such schedule"));
    }

    @POST
    @Path("{id}/resume")
    @Operation(summary = "Resume a schedule: the ticks it missed follow its missed-tick policy (role operator)")
    @APIResponse(responseCode = "200", description = "The schedule")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public ScheduleView resume(@PathParam("id") String id, @NotNull @Valid OperatorResource.Action action) {
        return actions.resume(id, action.reason(), Operators.name(security))
                .orElseThrow(() -> new NotFoundException("No such schedule"));
    }

    @POST
    @Path("{id}/trigger")
    @Operation(summary = "Submit the schedule's order now, outside its ticks; its position is left alone (role operator)")
    @APIResponse(responseCode = "202", description = "The order, with its Location")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public Response trigger(@PathParam("id") String id, @NotNull @Valid OperatorResource.Action action) {
        try {
            TickOrders.TickOrder order = actions.trigger(id, action.reason(), Operators.name(security))
                    .orElseThrow(() -> new NotFoundException("No such schedule"));
            if (!order.accepted()) {
                throw new InvalidRequestException("the schedule's order was refused: " + order.refusal().reason());
            }
            return Response.accepted(order).location(uri.getBaseUriBuilder().path("orders").path(order.orderId()).build()).build();
        } catch (ScheduleActions.ScheduleRefusedException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    @POST
    @Path("{id}/backfill")
    @Operation(summary = "Submit the orders of the schedule's ticks in a range, at most 100; ticks that had their order"
            + " answer with it (role operator)")
    @APIResponse(responseCode = "200", description = "Each tick with its order or its refusal")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public Backfilled backfill(@PathParam("id") String id, @NotNull @Valid Backfill range) {
        try {
            List<TickOrders.TickOrder> orders = actions.backfill(id, instant("from", range.from()), instant("to", range.to()),
                    range.reason(), Operators.name(security)).orElseThrow(() -> new NotFoundException("No such schedule"));
            return new Backfilled(orders.size(), orders);
        } catch (ScheduleActions.ScheduleRefusedException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    private static java.time.Instant instant(String field, String text) {
        try {
            return ScheduleSpec.instant(field, text);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Remove a schedule; its orders stay (role operator)")
    @APIResponse(responseCode = "204", description = "Removed")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public void remove(@PathParam("id") String id) {
        if (!actions.remove(id, Operators.name(security))) {
            throw new NotFoundException("No such schedule");
        }
    }
}
