package io.overseer.api;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.info.License;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * The HTTP API lives under /api. The OpenAPI document (MicroProfile OpenAPI, served by the server at
 * /openapi) is generated from the resources; the shared problem answers are declared once here and
 * referred to by name from each operation.
 */
@ApplicationPath("api")
@OpenAPIDefinition(
        info = @Info(title = "Overseer", version = "0.1",
                description = "Orders processed by the Scheduler Agent Supervisor pattern. Errors are RFC 9457 "
                        + "problems (application/problem+json); invalid fields are listed in `errors`.",
                license = @License(name = "Apache-2.0")),
        security = @SecurityRequirement(name = "basic"),
        components = @Components(responses = {
                @APIResponse(name = "Invalid", description = "Malformed JSON, unknown or mistyped fields, invalid values"
                        + " or parameters; `errors` names each field",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "Unauthorized", description = "No or wrong credentials (HTTP Basic)",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "Forbidden", description = "The caller lacks the role",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "NotFound", description = "No such order",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "Conflict", description = "The order's state does not allow the action",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "TooLarge", description = "The body exceeds the limit (64 KiB by default)",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "BatchTooLarge", description = "More orders than overseer.submission.max-batch"
                        + " (100 by default), or a body over overseer.api.max-batch-body-bytes (1 MiB by default);"
                        + " nothing was stored",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "UnsupportedMediaType", description = "The body is not application/json in UTF-8, or its"
                        + " Content-Type cannot be read",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "BrokerUnavailable", description = "The broker did not answer within a few"
                        + " seconds; retry after the Retry-After seconds",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "SubmissionUnavailable", description = "Nothing was stored: more submissions"
                        + " waited than the server takes at once (overseer.submission.concurrency) for longer than"
                        + " overseer.submission.max-wait, or the broker did not answer when a reply-to's owner had to"
                        + " be checked; retry after the Retry-After seconds, with the same Idempotency-Key",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem"))),
                @APIResponse(name = "KeyReused", description = "The Idempotency-Key was used for a different request",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = "Problem")))
        }))
@SecurityScheme(securitySchemeName = "basic", type = SecuritySchemeType.HTTP, scheme = "basic",
        description = "HTTP Basic against the server's realm; roles submitter, viewer, operator")
public class RestApplication extends Application {

    /**
     * Links are path-absolute ({@link ApiLinks}); Jersey (Payara) would turn a relative Location into an
     * absolute one built from the Host header. The key is Jersey's; other JAX-RS runtimes ignore it.
     */
    @Override
    public Map<String, Object> getProperties() {
        return Map.of("jersey.config.server.headers.location.relative.resolution.disabled", true);
    }
}
