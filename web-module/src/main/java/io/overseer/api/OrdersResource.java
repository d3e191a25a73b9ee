package io.overseer.api;

import io.overseer.query.HistoryView;
import io.overseer.query.OrderQueries;
import io.overseer.query.OrderSummary;
import io.overseer.query.OrderView;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.submission.InvalidOrderException;
import io.overseer.submission.OrderRequest;
import io.overseer.submission.OrderSubmission;
import io.overseer.submission.SubmissionKey;
import io.overseer.submission.SubmissionKeyConflictException;
import io.overseer.submission.Submitted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Submit orders, list them, read their state and history. Errors become problem responses in
 * {@link ProblemMappers}; who may call what is declared in web.xml.
 *
 * <p>One instance for the application, request state only in parameters: making this bean and injecting
 * its EJB references once per request was a tenth of the CPU a submission costs (JFR, BENCHMARKS.md).
 */
@Path("orders")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "orders")
public class OrdersResource {

    /** The Idempotency-Key header: 1–255 visible ASCII characters (no spaces or controls). */
    static final String KEY_FORMAT = "[\\x21-\\x7E]{1,255}";
    static final String REPLAYED = "Idempotency-Replayed";

    @Inject
    OrderSubmission submission;
    @Inject
    OrderQueries queries;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit an order (role submitter)", description = "With an Idempotency-Key, a retry "
            + "(same key and body, same caller, within 24 h) answers the first 202 again, marked "
            + REPLAYED + ": true, and creates nothing; the key with another body is a 422.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(ref = "OrderRequest")))
    @APIResponse(responseCode = "202", description = "Accepted: Location names the order", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Accepted.class)))
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "422", ref = "KeyReused")
    @APIResponse(responseCode = "503", ref = "SubmissionUnavailable")
    public Response submit(@NotNull(message = "an order body is required") @Valid OrderRequest order,
                           @Parameter(description = "client key making retries safe")
                           @HeaderParam("Idempotency-Key") @Pattern(regexp = KEY_FORMAT,
                                   message = "must be 1-255 visible ASCII characters") String idempotencyKey,
                           @Context UriInfo uriInfo, @Context SecurityContext security)
            throws InvalidOrderException, SubmissionKeyConflictException, BrokerUnavailableException {
        String user = security.getUserPrincipal().getName();
        SubmissionKey key = idempotencyKey == null ? null : SubmissionKey.of("http:" + user, idempotencyKey, order);
        Submitted submitted = submission.submit(order, key, user);
        return Response.accepted(Accepted.pending(submitted.orderId()))
                .header(HttpHeaders.LOCATION, ApiLinks.order(uriInfo, submitted.orderId()))
                .header(REPLAYED, submitted.replayed() ? "true" : null)
                .build();
    }

    @GET
    @Operation(summary = "List orders (role viewer)", description = "Oldest first, by creation time then id; "
            + "pages by keyset: follow `next` (also a Link rel=next header) until it is null.")
    @APIResponse(responseCode = "200", description = "A page of orders", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OrderPage.class)))
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Response list(@Parameter(description = "only orders in this state") @QueryParam("state") String state,
                         @Parameter(description = "page size, 1-200, default 50") @QueryParam("limit") String limit,
                         @Parameter(description = "cursor from a previous page") @QueryParam("after") String after,
                         @Parameter(description = "only orders with this business attribute, name:value (e.g. region:eu)")
                         @QueryParam("attribute") String attribute,
                         @Context UriInfo uriInfo) {
        ListQuery query = ListQuery.of(state, limit, after, attribute);
        ListQuery.Page<OrderSummary> page = query.page(queries.list(query.state(), query.attributeName(),
                query.attributeValue(), query.afterCreatedAt(), query.afterOrderId(), query.fetch()),
                last -> new ListQuery.Cursor(last.createdAt(), last.orderId()));
        URI next = ApiLinks.nextPage(uriInfo, query.limit(), page.next());
        Response.ResponseBuilder response = Response.ok(new OrderPage(page.items(), next == null ? null : next.toString()));
        return (next == null ? response : response.link(next, "next")).build();
    }

    @GET
    @Path("{orderId}")
    @Operation(summary = "An order, its state record and its steps (role viewer)")
    @APIResponse(responseCode = "200", description = "The order", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "OrderView")))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public OrderView get(@PathParam("orderId") String orderId) {
        return queries.find(orderId).orElseThrow(() -> new NotFoundException("No such order"));
    }

    /** Every transition of the order and of each of its steps, oldest first. */
    @GET
    @Path("{orderId}/history")
    @Operation(summary = "Every transition of the order and its steps, oldest first (role viewer)")
    @APIResponse(responseCode = "200", description = "The transitions", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY,
            implementation = HistoryView.class)))
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public List<HistoryView> history(@PathParam("orderId") String orderId) {
        return queries.history(orderId).orElseThrow(() -> new NotFoundException("No such order"));
    }
}
