package io.overseer.api;

import io.overseer.statestore.OrderQueries;
import io.overseer.statestore.OrderView;
import io.overseer.statestore.HistoryView;
import io.overseer.submission.InvalidOrderException;
import io.overseer.submission.OrderRequest;
import io.overseer.submission.OrderSubmission;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import java.util.List;
import java.util.Map;

/** Submit orders and read their state. Errors become problem responses in {@link ProblemMappers}. */
@Path("orders")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class OrdersResource {

    @Inject
    OrderSubmission submission;
    @Inject
    OrderQueries queries;
    @Context
    UriInfo uriInfo;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submit(@NotNull(message = "an order body is required") @Valid OrderRequest order)
            throws InvalidOrderException {
        String orderId = submission.submit(order);
        return Response.accepted(Map.of("orderId", orderId, "processState", "Pending"))
                .location(uriInfo.getAbsolutePathBuilder().path(orderId).build())
                .build();
    }

    @GET
    @Path("{orderId}")
    public OrderView get(@PathParam("orderId") String orderId) {
        return queries.find(orderId).orElseThrow(() -> new NotFoundException("No order " + orderId));
    }

    /** Every transition of the order and of each of its steps, oldest first. */
    @GET
    @Path("{orderId}/history")
    public List<HistoryView> history(@PathParam("orderId") String orderId) {
        return queries.history(orderId).orElseThrow(() -> new NotFoundException("No order " + orderId));
    }
}
