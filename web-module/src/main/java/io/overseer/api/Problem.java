package io.overseer.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
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
}
