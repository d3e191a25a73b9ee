package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** An RFC 9457 problem body; {@code instance} is the request path when known. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "status", "detail", "instance"})
record Problem(String type, String title, int status, String detail, String instance) {

    static final String MEDIA_TYPE = "application/problem+json";

    Problem at(String path) {
        return new Problem(type, title, status, detail, path);
    }
}
