package io.overseer.api;

import io.overseer.admin.OperatorActions;
import io.overseer.query.OrderQueries;
import io.overseer.query.OrderView;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import io.overseer.submission.OrderRequest;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/**
 * Operator actions on an order (role {@code operator}, see web.xml): resubmit an order in Error from
 * where it failed, or cancel an order, undoing what it did. Both say why; the history and the audit log
 * record who. The one URL of each action, for clients and the console alike; the console's former URLs
 * answer a redirect here ({@link AdminOrdersResource#moved}).
 */
@Path("operator/orders/{orderId}")
@Tag(name = "operator")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class OperatorResource {

    /** Why the operator acts; kept in the order's history. */
    public record Action(@NotBlank @Size(max = 500) @Pattern(regexp = OrderRequest.TEXT,
            message = OrderRequest.TEXT_MESSAGE) String reason) {
    }

    @Inject
    OperatorActions actions;
    @Inject
    OrderQueries queries;
    @Context
    SecurityContext security;

    @POST
    @Path("resubmit")
    @Operation(summary = "Run an order in Error again from where it failed (role operator)")
    @APIResponse(responseCode = "200", description = "The order after the action")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    public OrderView resubmit(@PathParam("orderId") String orderId, @NotNull @Valid Action action) {
        return orderAfter(orderId, actions.resubmit(orderId, Operators.name(security), action.reason()));
    }

    @POST
    @Path("cancel")
    @Operation(summary = "Abandon an order and undo what it did (role operator)")
    @APIResponse(responseCode = "200", description = "The order after the action")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    public OrderView cancel(@PathParam("orderId") String orderId, @NotNull @Valid Action action) {
        return orderAfter(orderId, actions.cancel(orderId, Operators.name(security), action.reason()));
    }

    /** An order action's answer: the order as it is after the action; 404 when the action found no such order. */
    private OrderView orderAfter(String orderId, boolean exists) {
        if (!exists) {
            throw new NotFoundException("No such order");
        }
        return queries.find(orderId).orElseThrow();
    }
}
