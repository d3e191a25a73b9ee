package io.overseer.api;

import io.overseer.admin.AdminQueries;
import io.overseer.admin.BulkAction;
import io.overseer.admin.BulkJobs;
import io.overseer.admin.BulkSelection;
import io.overseer.admin.BulkSettings;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.platform.Json;
import io.overseer.submission.OrderRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.ClientErrorException;
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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Bulk actions (docs/console.md, "Bulk actions"): resubmit or cancel every order a filter matches (or a
 * named set), or redrive every dead letter one matches; first a preview, then a job that runs in the
 * background ({@link BulkJobs}). Viewers see the jobs; operators preview, start and cancel them (web.xml:
 * every POST under /api/admin needs role operator).
 */
@Path("admin/bulk-jobs")
@Tag(name = "admin")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AdminBulkJobsResource {

    /** The listing's filters, as GET /api/admin/orders takes them. */
    public record OrderFilter(String state, String workflow, String customer, Integer minFailures, String olderThan,
                              String attribute) {
    }

    /** Which dead letters: from this original queue, with a reason containing this text (each optional). */
    public record DeadLetterFilter(@Size(max = 200) String originalQueue,
                                   @Size(max = 200) @Pattern(regexp = OrderRequest.TEXT,
                                           message = OrderRequest.TEXT_MESSAGE) String reason) {
    }

    /**
     * A bulk action: {@code action}, and what it acts on — for resubmit and cancel a {@code filter} or
     * {@code orderIds}, for redrive a {@code deadLetters} filter or {@code messageIds}. A selection that
     * restricts nothing needs {@code everything: true}. {@code reason} is required to start a job (not to
     * preview one); {@code ratePerSecond} paces it (default {@code overseer.bulk.rate}).
     */
    public record Request(@NotNull String action, @Valid OrderFilter filter,
                          @Size(max = BulkJobs.MAX_IDS) List<@NotNull @Size(min = 1, max = 64) String> orderIds,
                          @Valid DeadLetterFilter deadLetters,
                          @Size(max = BulkJobs.MAX_IDS) List<@NotNull @Pattern(regexp = "\\d{1,18}",
                                  message = "must be a dead letter's message id") String> messageIds,
                          Boolean everything,
                          @Size(max = 500) @Pattern(regexp = OrderRequest.TEXT, message = OrderRequest.TEXT_MESSAGE)
                          String reason,
                          Integer ratePerSecond) {
    }

    /** A page of jobs, newest first; {@code next} is the path of the older page, null on the last. */
    public record Jobs(List<BulkJobs.Job> jobs, String next) {
    }

    /** A page of a job's items in order; {@code next} is the path of the next page, null on the last. */
    public record Items(List<BulkJobs.Item> items, String next) {
    }

    static final int MAX_RATE = 1000;
    private static final Set<String> OUTCOMES = Set.of("pending", "done", "skipped", "failed");

    @Inject
    BulkJobs jobs;
    @Inject
    BulkSettings settings;
    @Context
    SecurityContext security;
    @Context
    UriInfo uriInfo;

    @POST
    @Path("preview")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "How many orders or dead letters a bulk action would act on, and the first few (role operator)")
    @APIResponse(responseCode = "200", description = "The count and a sample")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "BrokerUnavailable")
    public BulkJobs.Preview preview(@NotNull @Valid Request request) throws BrokerUnavailableException {
        BulkAction action = action(request);
        return jobs.preview(action, selection(action, request));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a bulk job: its targets are fixed now, then acted on in the background (role operator)")
    @APIResponse(responseCode = "201", description = "The job; Location names it")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "BrokerUnavailable")
    public Response start(@NotNull @Valid Request request) throws BrokerUnavailableException {
        BulkAction action = action(request);
        BulkSelection selection = selection(action, request);
        QueryParameters checks = new QueryParameters();
        checks.require(request.reason() != null && !request.reason().isBlank(), "reason",
                "is required: it lands in each order's history and the audit log");
        checks.require(request.ratePerSecond() == null || request.ratePerSecond() >= 1 && request.ratePerSecond() <= MAX_RATE,
                "ratePerSecond", "must be 1 to " + MAX_RATE);
        checks.validate();
        int rate = request.ratePerSecond() == null ? settings.rate() : request.ratePerSecond();
        BulkJobs.Job job = jobs.start(action, selection, Operators.name(security), request.reason(), rate);
        return Response.created(uriInfo.getBaseUriBuilder().path("admin/bulk-jobs/{id}").build(job.id()))
                .entity(job).build();
    }

    @GET
    @Operation(summary = "The bulk jobs, newest first (role viewer)")
    @APIResponse(responseCode = "200", description = "A page of jobs")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Jobs list(@Parameter(description = "page size, 1-200, default 50") @QueryParam("limit") String limit,
                     @Parameter(description = "only jobs older than this one") @QueryParam("before") String before) {
        QueryParameters query = new QueryParameters();
        int size = query.limit(limit, 50, 200);
        Long beforeId = query.optional("before", before, Long::parseLong, "must be a job's id");
        query.validate();
        List<BulkJobs.Job> page = jobs.jobs(size, beforeId);
        String next = page.size() < size ? null : uriInfo.getRequestUriBuilder()
                .replaceQueryParam("before", page.get(page.size() - 1).id()).build().toString();
        return new Jobs(page, next);
    }

    @GET
    @Path("{id}")
    @Operation(summary = "A bulk job: its state, counts and the instance running it (role viewer)")
    @APIResponse(responseCode = "200", description = "The job")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public BulkJobs.Job get(@PathParam("id") String id) {
        return jobs.job(id(id)).orElseThrow(() -> new NotFoundException("No such bulk job"));
    }

    @GET
    @Path("{id}/items")
    @Operation(summary = "A bulk job's targets in order, with what came of each and why (role viewer)")
    @APIResponse(responseCode = "200", description = "A page of items")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public Items items(@PathParam("id") String id,
                       @Parameter(description = "pending, done, skipped or failed") @QueryParam("outcome") String outcome,
                       @Parameter(description = "page size, 1-500, default 100") @QueryParam("limit") String limit,
                       @Parameter(description = "only items after this position") @QueryParam("after") String after) {
        long jobId = id(id);
        QueryParameters query = new QueryParameters();
        int size = query.limit(limit, 100, 500);
        Integer afterSeq = query.optional("after", after, Integer::parseInt, "must be an item's position");
        query.require(outcome == null || OUTCOMES.contains(outcome), "outcome", "must be one of " + OUTCOMES);
        query.validate();
        get(id);
        List<BulkJobs.Item> page = jobs.items(jobId, outcome, afterSeq == null ? 0 : afterSeq, size);
        String next = page.size() < size ? null : uriInfo.getRequestUriBuilder()
                .replaceQueryParam("after", page.get(page.size() - 1).seq()).build().toString();
        return new Items(page, next);
    }

    @POST
    @Path("{id}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Cancel a running bulk job: what it has not acted on yet is skipped (role operator)")
    @APIResponse(responseCode = "200", description = "The job after the cancel")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    public BulkJobs.Job cancel(@PathParam("id") String id, @NotNull @Valid OperatorResource.Action action) {
        long jobId = id(id);
        BulkJobs.Job job = get(id);
        if (!jobs.cancel(jobId, Operators.name(security), action.reason())) {
            throw new ClientErrorException("Bulk job " + jobId + " is " + jobs.job(jobId).map(BulkJobs.Job::state)
                    .orElse(job.state()) + ", not running", Response.Status.CONFLICT);
        }
        return get(id);
    }

    private static BulkAction action(Request request) {
        BulkAction action = BulkAction.named(request.action());
        if (action == null) {
            throw new InvalidRequestException("No such bulk action", List.of(new Problem.FieldError("action",
                    "must be one of resubmit, cancel, release, redrive")));
        }
        return action;
    }

    /**
     * The request's selection, checked against its action: orders for resubmit and cancel, dead letters
     * for redrive, a filter or named targets but not both.
     */
    private static BulkSelection selection(BulkAction action, Request request) {
        QueryParameters checks = new QueryParameters();
        boolean orders = action.onOrders();
        checks.require(!orders || request.deadLetters() == null && request.messageIds() == null, "deadLetters",
                "only a redrive acts on dead letters: select orders with filter or orderIds");
        checks.require(orders || request.filter() == null && request.orderIds() == null, "filter",
                "a redrive acts on dead letters: select them with deadLetters or messageIds");
        checks.require(request.filter() == null || request.orderIds() == null, "orderIds", "give a filter or orderIds, not both");
        checks.require(request.deadLetters() == null || request.messageIds() == null, "messageIds",
                "give deadLetters or messageIds, not both");
        checks.validate();
        boolean everything = Boolean.TRUE.equals(request.everything());
        Map<String, Object> shown = new LinkedHashMap<>();
        if (orders) {
            AdminQueries.Filter filter = request.filter() == null ? null : filter(request.filter());
            putShown(shown, request.filter(), request.orderIds());
            if (everything) {
                shown.put("everything", true);
            }
            return new BulkSelection(filter == null && request.orderIds() == null ? none() : filter, request.orderIds(),
                    null, null, everything, Json.write(shown));
        }
        DeadLetterFilter letters = request.deadLetters();
        String queue = letters == null || blank(letters.originalQueue()) ? null : letters.originalQueue();
        String reason = letters == null || blank(letters.reason()) ? null : letters.reason();
        if (queue != null) {
            shown.put("originalQueue", queue);
        }
        if (reason != null) {
            shown.put("reason", reason);
        }
        if (request.messageIds() != null) {
            shown.put("messageIds", request.messageIds());
        }
        if (everything) {
            shown.put("everything", true);
        }
        return new BulkSelection(null, request.messageIds(), queue, reason, everything, Json.write(shown));
    }

    private static void putShown(Map<String, Object> shown, OrderFilter filter, List<String> orderIds) {
        if (filter != null) {
            Map<String, Object> given = new LinkedHashMap<>();
            put(given, "state", filter.state());
            put(given, "workflow", filter.workflow());
            put(given, "customer", filter.customer());
            put(given, "minFailures", filter.minFailures());
            put(given, "olderThan", filter.olderThan());
            put(given, "attribute", filter.attribute());
            shown.put("filter", given);
        }
        if (orderIds != null) {
            shown.put("orderIds", orderIds.size() <= 20 ? orderIds
                    : List.of(orderIds.subList(0, 20), "… " + (orderIds.size() - 20) + " more"));
        }
    }

    private static void put(Map<String, Object> map, String name, Object value) {
        if (value != null && !(value instanceof String text && text.isBlank())) {
            map.put(name, value);
        }
    }

    /** The filter, checked as the listing checks its query; a problem names the field under "filter.". */
    private static AdminQueries.Filter filter(OrderFilter given) {
        try {
            ListQuery listing = ListQuery.of(blankToNull(given.state()), null, null, blankToNull(given.attribute()));
            return AdminOrdersResource.filter(listing, given.workflow(), given.customer(),
                    given.minFailures() == null ? null : given.minFailures().toString(), blankToNull(given.olderThan()));
        } catch (InvalidRequestException e) {
            List<Problem.FieldError> errors = new ArrayList<>();
            e.errors().forEach(error -> errors.add(new Problem.FieldError("filter." + error.field(), error.message())));
            throw new InvalidRequestException(e.getMessage(), errors);
        }
    }

    private static AdminQueries.Filter none() {
        return new AdminQueries.Filter(null, null, null, null, null, null, null);
    }

    private static long id(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new NotFoundException("No such bulk job");
        }
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    private static String blankToNull(String text) {
        return blank(text) ? null : text;
    }
}
