package io.overseer.api;

import io.overseer.admin.AdminQueries;
import io.overseer.admin.OperatorActions;
import io.overseer.statestore.ProcessState;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
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
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The console's view of orders (docs/console.md): the listing with the operators' filters, one order
 * with its history and remote calls, and the order actions. Reads need role viewer or operator, actions
 * role operator (web.xml); each action says why, and the history and the audit log record who.
 */
@Path("admin/orders")
@Tag(name = "admin")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AdminOrdersResource {

    /** A page of the console's listing; {@code next} is the path of the next page, null on the last. */
    public record Page(List<AdminQueries.Line> orders, String next) {
    }

    @Inject
    AdminQueries queries;
    @Inject
    OperatorActions actions;
    @Context
    SecurityContext security;

    @GET
    @Operation(summary = "List orders with filters, oldest first, by keyset pages (role viewer)")
    @APIResponse(responseCode = "200", description = "A page of orders")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Page list(@Parameter(description = "only orders in this state") @QueryParam("state") String state,
                     @Parameter(description = "only orders of this workflow") @QueryParam("workflow") String workflow,
                     @Parameter(description = "only orders of this customer") @QueryParam("customer") String customer,
                     @Parameter(description = "only orders with at least this many failures")
                     @QueryParam("minFailures") String minFailures,
                     @Parameter(description = "only orders created at least this long ago (ISO-8601, e.g. PT5M)")
                     @QueryParam("olderThan") String olderThan,
                     @Parameter(description = "only orders with this business attribute, name:value (e.g. region:eu)")
                     @QueryParam("attribute") String attribute,
                     @Parameter(description = "page size, 1-200, default 50") @QueryParam("limit") String limit,
                     @Parameter(description = "cursor from a previous page") @QueryParam("after") String after,
                     @Context UriInfo uriInfo) {
        ListQuery query = ListQuery.of(state, limit, after, attribute);
        AdminQueries.Filter filter = filter(query, workflow, customer, minFailures, olderThan);
        ListQuery.Page<AdminQueries.Line> page = query.page(queries.list(filter, query.afterCreatedAt(),
                query.afterOrderId(), query.fetch()), last -> new ListQuery.Cursor(last.createdAt(), last.orderId()));
        URI next = ApiLinks.nextPage(uriInfo, query.limit(), page.next());
        return new Page(page.items(), next == null ? null : next.toString());
    }

    static AdminQueries.Filter filter(ListQuery listing, String workflow, String customer, String minFailures,
                                              String olderThan) {
        QueryParameters query = new QueryParameters();
        Integer failures = query.optional("minFailures", minFailures,
                text -> QueryParameters.within(Integer.parseInt(text), 0, Integer.MAX_VALUE),
                "must be a whole number, 0 or more");
        Duration age = query.optional("olderThan", olderThan, AdminOrdersResource::notNegative,
                "must be an ISO-8601 duration such as PT5M, not negative");
        query.require(workflow == null || workflow.length() <= 64, "workflow", "must be at most 64 characters");
        query.require(customer == null || customer.length() <= 100, "customer", "must be at most 100 characters");
        query.validate();
        return new AdminQueries.Filter(listing.state(), blankToNull(workflow), blankToNull(customer), failures, age,
                listing.attributeName(), listing.attributeValue());
    }

    private static Duration notNegative(String text) {
        Duration age = Duration.parse(text);
        if (age.isNegative()) {
            throw new IllegalArgumentException("negative");
        }
        return age;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    @GET
    @Path("{orderId}")
    @Operation(summary = "An order with its steps, history, remote calls and allowed actions (role viewer)")
    @APIResponse(responseCode = "200", description = "The order")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public AdminQueries.Detail get(@PathParam("orderId") String orderId) {
        return queries.detail(orderId).orElseThrow(() -> new NotFoundException("No such order"));
    }

    @POST
    @Path("{orderId}/resubmit")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Run an order in Error again from the failed step (role operator)")
    @APIResponse(responseCode = "200", description = "The order after the action")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    public AdminQueries.Detail resubmit(@PathParam("orderId") String orderId,
                                        @NotNull @Valid OperatorResource.Action action) {
        return OperatorResource.orderAfter(actions.resubmit(orderId, operator(), action.reason()),
                () -> queries.detail(orderId));
    }

    @POST
    @Path("{orderId}/cancel")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Abandon an order and undo what it did (role operator)")
    @APIResponse(responseCode = "200", description = "The order after the action")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    public AdminQueries.Detail cancel(@PathParam("orderId") String orderId,
                                      @NotNull @Valid OperatorResource.Action action) {
        return OperatorResource.orderAfter(actions.cancel(orderId, operator(), action.reason()),
                () -> queries.detail(orderId));
    }

    private String operator() {
        return security.getUserPrincipal().getName();
    }
}
