package io.overseer.api;

import io.overseer.admin.AdminQueries;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
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
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The console's view of orders (docs/console.md): the listing with the operators' filters, and one order
 * with its history, remote calls and the actions allowed now (role viewer or operator). The actions
 * themselves are {@link OperatorResource}'s.
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

    /**
     * The order actions' former console URLs: they are served at {@code /api/operator/orders/{id}/…} alone
     * ({@link OperatorResource}), and a client of the old ones is sent there. 308 keeps the method and the
     * body; nothing is read or done here, so the action is authorised, validated and recorded once, there.
     */
    @POST
    @Path("{orderId}/{action}") // a template without a regex: the OpenAPI document shows it as a path
    @Operation(summary = "Moved to /api/operator/orders/{orderId}/resubmit and …/cancel (308)", deprecated = true)
    @APIResponse(responseCode = "308", description = "Location: the action's URL; repeat the request there")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public Response moved(@PathParam("orderId") String orderId,
                          @Parameter(description = "resubmit or cancel") @PathParam("action") String action,
                          @Context UriInfo uriInfo) {
        if (!action.equals("resubmit") && !action.equals("cancel")) {
            throw new NotFoundException("No such order action");
        }
        URI target = uriInfo.getBaseUriBuilder().path(OperatorResource.class).path(action).build(orderId);
        return Response.status(Response.Status.PERMANENT_REDIRECT).location(target).build();
    }
}
