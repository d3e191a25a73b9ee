package io.overseer.api;

import io.overseer.admin.WorkflowCatalog;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The workflow definitions the console draws (docs/console.md): every workflow with its versions, and one
 * version's steps. Role viewer or operator (web.xml), like every read under /api/admin.
 */
@Path("admin/workflows")
@Tag(name = "admin")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AdminWorkflowsResource {

    /** The workflows, by name. */
    public record Workflows(List<WorkflowCatalog.Workflow> workflows) {
    }

    @Inject
    WorkflowCatalog catalog;

    @GET
    @Operation(summary = "Every workflow, its current version and the stored ones (role viewer)")
    @APIResponse(responseCode = "200", description = "The workflows")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    public Workflows list() {
        return new Workflows(catalog.workflows());
    }

    @GET
    @Path("{name}")
    @Operation(summary = "A workflow's current definition, as new orders run it (role viewer)")
    @APIResponse(responseCode = "200", description = "The definition and its steps")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public WorkflowCatalog.Definition current(@PathParam("name") String name) {
        return catalog.current(name).orElseThrow(() -> new NotFoundException("No such workflow"));
    }

    @GET
    @Path("{name}/versions/{version}")
    @Operation(summary = "One version of a workflow, current or kept for its orders (role viewer)")
    @APIResponse(responseCode = "200", description = "The definition and its steps")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    public WorkflowCatalog.Definition version(@PathParam("name") String name, @PathParam("version") String version) {
        return catalog.version(name, version)
                .orElseThrow(() -> new NotFoundException("No such version of the workflow"));
    }
}
