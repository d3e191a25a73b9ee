package io.overseer.api;

import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.submission.BatchOrder;
import io.overseer.submission.BatchResult;
import io.overseer.submission.BatchSource;
import io.overseer.submission.BatchSubmission;
import io.overseer.submission.BatchTooLargeException;
import io.overseer.submission.OrderRequest;
import io.overseer.submission.OrderSubmission;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Many orders in one request ({@code POST /api/orders/batch}): one authentication, one pass through the
 * submission door ({@link SubmissionGate}), one transaction for the orders accepted. Each order is bound
 * and validated alone and refused alone, with the problem {@code POST /api/orders} would have answered;
 * the answer is 200 with a result per order, in the batch's order (docs/http-api.md says why 200).
 */
@Path("orders/batch")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "orders")
public class OrderBatchResource {

    static final String KEY = "idempotencyKey";
    private static final JsonProvider JSON = JsonProvider.provider();

    @Inject
    OrderSubmission submission;
    @Inject
    @ConfigProperty(name = BatchSubmission.MAX_BATCH_PROPERTY, defaultValue = BatchSubmission.DEFAULT_MAX_BATCH)
    int maxBatch;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit many orders in one transaction (role submitter)", description = "Up to "
            + "overseer.submission.max-batch orders (default 100). Each is refused alone if it must be (its result "
            + "holds the 400 or 422 problem), the others are stored together. An order's own idempotencyKey makes "
            + "a retried batch answer its earlier orders (replayed) and create nothing; the key with another "
            + "order refuses that order alone. 200 whenever the batch was read: each result has its own status.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(ref = "OrderBatchRequest")))
    @APIResponse(responseCode = "200", description = "One result per order, in the batch's order", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "OrderBatchAnswer")))
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "413", ref = "BatchTooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "SubmissionUnavailable")
    public Response submit(@NotNull(message = "a batch body is required") OrderBatchRequest batch,
                           @HeaderParam("Idempotency-Key") String headerKey,
                           @Context UriInfo uriInfo, @Context SecurityContext security)
            throws BatchTooLargeException, BrokerUnavailableException {
        if (headerKey != null) {
            throw new InvalidRequestException("A batch takes no Idempotency-Key header; give each order its own "
                    + KEY, List.of(new Problem.FieldError("Idempotency-Key", "give each order its own " + KEY)));
        }
        if (batch.orders() == null || batch.orders().isEmpty()) {
            throw new InvalidRequestException("A batch holds at least one order",
                    List.of(new Problem.FieldError("orders", "must hold at least one order")));
        }
        if (batch.orders().size() > maxBatch) {
            throw new BatchTooLargeException(batch.orders().size(), maxBatch); // before binding any of them
        }
        List<BatchOrder> orders = new ArrayList<>(batch.orders().size());
        List<OrderBatchAnswer.Item> results = new ArrayList<>(batch.orders().size());
        for (int index = 0; index < batch.orders().size(); index++) {
            try {
                orders.add(bind(index, batch.orders().get(index)));
            } catch (InvalidRequestException e) {
                results.add(refused(index, new Problem("about:blank", "Invalid request", 400, e.getMessage(),
                        e.errors().isEmpty() ? null : e.errors())));
            }
        }
        for (BatchResult result : submission.submitAll(orders, BatchSource.http(security.getUserPrincipal().getName()))) {
            results.add(answer(result, uriInfo));
        }
        results.sort(Comparator.comparingInt(OrderBatchAnswer.Item::index));
        int accepted = (int) results.stream().filter(item -> item.problem() == null).count();
        return Response.ok(new OrderBatchAnswer(accepted, results.size() - accepted, results)).build();
    }

    /** One order of the batch, bound as strictly as a single order's body, with its own key if it has one. */
    private static BatchOrder bind(int index, JsonValue value) {
        if (!(value instanceof JsonObject object)) {
            throw new InvalidRequestException("An order of a batch must be a JSON object");
        }
        String key = null;
        if (object.containsKey(KEY)) {
            if (!(object.get(KEY) instanceof JsonString string) || !string.getString().matches(OrdersResource.KEY_FORMAT)) {
                throw new InvalidRequestException("The order's " + KEY + " is not usable",
                        List.of(new Problem.FieldError(KEY, "must be 1-255 visible ASCII characters")));
            }
            key = string.getString();
            object = JSON.createObjectBuilder(object).remove(KEY).build();
        }
        return BatchOrder.of(index, StrictJson.bind(object, OrderRequest.class), key);
    }

    private static OrderBatchAnswer.Item answer(BatchResult result, UriInfo uriInfo) {
        if (result.accepted()) {
            return new OrderBatchAnswer.Item(result.index(), 202, result.orderId(),
                    ApiLinks.order(uriInfo, result.orderId()), "Pending", result.replayed() ? Boolean.TRUE : null,
                    null);
        }
        BatchResult.Refusal refusal = result.refusal();
        if (refusal.kind() == BatchResult.Refusal.Kind.KEY_REUSED) {
            return refused(result.index(), Problem.of(422, "Idempotency-Key reused", refusal.reason()));
        }
        List<Problem.FieldError> fields = refusal.fields().stream()
                .map(field -> new Problem.FieldError(field.field(), field.message())).toList();
        // As POST /api/orders titles them: a field's violation "Invalid request", the order's own refusal "Invalid order".
        return refused(result.index(), fields.isEmpty() ? Problem.of(400, "Invalid order", refusal.reason())
                : new Problem("about:blank", "Invalid request", 400, refusal.reason(), fields));
    }

    private static OrderBatchAnswer.Item refused(int index, Problem problem) {
        return new OrderBatchAnswer.Item(index, problem.status(), null, null, null, null, problem);
    }
}
