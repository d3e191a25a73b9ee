package io.overseer.api;

import io.overseer.scheduler.EventReceipt;
import io.overseer.scheduler.Scheduler;
import io.overseer.statestore.Actor;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * External events for orders whose workflow waits for them (a step with {@code "event": "<name>"}): an
 * approval, a payment provider's webhook. Role submitter, like the submission it continues (web.xml: POST
 * under /api/orders). The body is any JSON object (empty: {}), kept with the step and handed to the
 * agents of the steps that follow.
 */
@Path("orders/{orderId}/events/{event}")
@Produces(MediaType.APPLICATION_JSON)
public class EventsResource {

    /** What the delivery did: {@code received}, or {@code already received} for a repeated event. */
    public record Delivered(String orderId, String event, String outcome) {
    }

    @Inject
    Scheduler scheduler;
    @Context
    SecurityContext security;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Deliver an external event an order waits for (role submitter)", description = "The "
            + "running step must wait for this event: it completes and the order moves on. A repeated event "
            + "changes nothing and answers `already received`; an order not waiting for it is a 409.")
    @APIResponse(responseCode = "200", description = "Received, or already received")
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    public Delivered deliver(@PathParam("orderId") String orderId,
                             @Parameter(description = "the event's name, as the workflow's step names it")
                             @PathParam("event") @Pattern(regexp = "[a-z0-9][a-z0-9-]{0,63}",
                                     message = "must be an event name ([a-z0-9-], at most 64)") String event,
                             String body) {
        String payload = StrictJson.readObject(body).toString();
        EventReceipt receipt = scheduler.deliver(orderId, event, payload,
                Actor.of(Actor.Kind.submission, "http:" + security.getUserPrincipal().getName()));
        return switch (receipt) {
            case UNKNOWN_ORDER -> throw new NotFoundException("No such order");
            case ALREADY_RECEIVED -> new Delivered(orderId, event, "already received");
            case RECEIVED -> new Delivered(orderId, event, "received");
        };
    }
}
