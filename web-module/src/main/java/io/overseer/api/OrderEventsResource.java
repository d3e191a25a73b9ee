package io.overseer.api;

import io.overseer.query.HistoryView;
import io.overseer.query.OrderQueries;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tags;

/**
 * {@code GET /api/orders/{id}/events}: every transition of the order and its steps as Server-Sent Events
 * ({@code event: transition}, {@code id:} the history seq, {@code data:} the history entry as JSON), from
 * the start or after {@code Last-Event-ID}, until the task rests in Processed, Compensated or Error; then the
 * stream ends. An order in Error that an operator resubmits moves again: reconnecting with the last id
 * follows it from there.
 */
@Path("orders/{orderId}/events")
@RequestScoped
public class OrderEventsResource {

    @Inject
    OrderQueries queries;
    @Inject
    OrderEventFeed feed;

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Tags(refs = "orders")
    @Operation(summary = "Live transitions of an order as Server-Sent Events, until it rests (role viewer)")
    @APIResponse(responseCode = "200", description = "text/event-stream of transitions")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "429", description = "the user holds the most event streams one user may (overseer.events.max-streams-per-user); Retry-After says when to try again")
    public void events(@PathParam("orderId") String orderId,
                       @Parameter(description = "resume after this event id")
                       @HeaderParam("Last-Event-ID") @Pattern(regexp = "[0-9]{1,9}",
                               message = "must be the id of an event of this stream") String lastEventId,
                       @Context SseEventSink sink, @Context Sse sse, @Context SecurityContext security) {
        List<HistoryView> history = queries.history(orderId).orElseThrow(() -> new NotFoundException("No such order"));
        int after = lastEventId == null ? 0 : Integer.parseInt(lastEventId);
        List<HistoryView> backlog = history.stream().filter(entry -> entry.seq() > after).toList();
        feed.watch(security.getUserPrincipal().getName(), orderId, after, backlog, OrderEventFeed.endsTask(history), sink, sse);
    }
}
