package io.overseer.api;

import io.overseer.platform.Json;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/** An RFC 9457 problem body. {@code errors} names the offending fields of a validation failure. */
@JsonbPropertyOrder({"type", "title", "status", "detail", "errors"})
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public record FieldError(String field, String message) {
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail, null);
    }

    /** Answers with this problem where no JAX-RS mapper can: in a servlet filter or an error page. */
    public void writeTo(HttpServletResponse response) throws IOException {
        response.setStatus(status);
        response.setContentType(MEDIA_TYPE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(Json.write(this));
    }
}
