package io.overseer.api;

import io.overseer.admin.DeadLetterActions;
import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.BrokerUnavailableException;
import io.overseer.messaging.DeadLetter;
import io.overseer.messaging.QueueStats;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
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
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The broker's side of the console (docs/console.md): queue counts and the dead-letter queue, read
 * through Artemis management ({@link BrokerQueues}); redrive and delete as operator actions, each with a
 * reason and audited ({@link DeadLetterActions}). Reads for viewers and operators, actions for operators
 * (web.xml). A broker that does not answer is a 503 problem within a few seconds.
 */
@Path("admin")
@Tag(name = "admin")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AdminQueuesResource {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 500;

    /** What an action did: {@code action}, the message it concerned (null for all), how many messages. */
    @JsonbNillable
    @JsonbPropertyOrder({"action", "messageId", "count"})
    public record Done(String action, Long messageId, int count) {
    }

    @Inject
    BrokerQueues queues;
    @Inject
    DeadLetterActions actions;
    @Context
    SecurityContext security;

    @GET
    @Path("queues")
    @Operation(summary = "Depth, consumers, in flight and scheduled of the application's queues and DLQ, ExpiryQueue")
    @APIResponse(responseCode = "200", description = "One entry per queue", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "QueueStatsList")))
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "BrokerUnavailable")
    public List<QueueStats> queues() throws BrokerUnavailableException {
        return queues.queues();
    }

    @GET
    @Path("dead-letters")
    @Operation(summary = "The dead-lettered messages, oldest first, with their dlqReason")
    @APIResponse(responseCode = "200", description = "Up to limit messages", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "DeadLetterList")))
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "BrokerUnavailable")
    public List<DeadLetter> deadLetters(@Parameter(description = "1 to " + MAX_LIMIT + ", default " + DEFAULT_LIMIT)
                                        @QueryParam("limit") String limit) throws BrokerUnavailableException {
        return queues.deadLetters(limit(limit));
    }

    @POST
    @Path("dead-letters/{messageId}/redrive")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Send a dead letter back to its original queue (role operator)")
    @APIResponse(responseCode = "200", description = "It went back", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "DeadLetterAction")))
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "503", ref = "BrokerUnavailable")
    public Done redrive(@PathParam("messageId") String id, @NotNull @Valid OperatorResource.Action action)
            throws BrokerUnavailableException {
        long messageId = messageId(id);
        if (!actions.redrive(messageId, Operators.name(security), action.reason())) {
            throw new NotFoundException("No dead letter " + messageId + " that can go back: it is gone, or it has no"
                    + " original queue (messages dead-lettered from the agents' queues can only be deleted)");
        }
        return new Done("redrive", messageId, 1);
    }

    @POST
    @Path("dead-letters/redrive")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Send every dead letter that has an original queue back to it (role operator)")
    @APIResponse(responseCode = "200", description = "How many went back", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "DeadLetterAction")))
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "BrokerUnavailable")
    public Done redriveAll(@NotNull @Valid OperatorResource.Action action) throws BrokerUnavailableException {
        return new Done("redrive-all", null, actions.redriveAll(Operators.name(security), action.reason()));
    }

    @POST
    @Path("dead-letters/{messageId}/delete")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Delete a dead letter (role operator)")
    @APIResponse(responseCode = "200", description = "It is deleted", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(ref = "DeadLetterAction")))
    @APIResponse(responseCode = "400", ref = "Invalid")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "503", ref = "BrokerUnavailable")
    public Done delete(@PathParam("messageId") String id, @NotNull @Valid OperatorResource.Action action)
            throws BrokerUnavailableException {
        long messageId = messageId(id);
        if (!actions.delete(messageId, Operators.name(security), action.reason())) {
            throw new NotFoundException("No dead letter " + messageId);
        }
        return new Done("delete", messageId, 1);
    }

    /**
     * A broker message id. Parsed here rather than by a regular expression in the path, which the OpenAPI
     * document would show as the path's text; one that is not a number names no message: 404.
     */
    private static long messageId(String id) {
        try {
            long value = Long.parseLong(id);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new NotFoundException("No dead letter " + id + ": a message id is a whole number");
    }

    /** Parsed here, not by JAX-RS (whose conversion failures of query parameters are 404s). */
    static int limit(String limit) {
        QueryParameters query = new QueryParameters();
        Integer value = query.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        query.validate();
        return value;
    }
}
