package io.overseer.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Assertions on RFC 9457 problem answers. */
public final class Problems {

    private Problems() {
    }

    /** The answer has this status and is a problem body that leaks no stack trace; returns the problem. */
    public static JsonNode assertProblem(Http.Reply reply, int status) {
        assertEquals(status, reply.status(), reply.body());
        assertTrue(reply.contentType().startsWith("application/problem+json"), reply.contentType() + ": " + reply.body());
        JsonNode problem = reply.json();
        assertEquals(status, problem.get("status").asInt(), reply.body());
        assertNotNull(problem.get("title"), reply.body());
        assertFalse(reply.body().contains("Exception") || reply.body().contains("\tat ")
                || reply.body().contains("at io.overseer"), "no internals in " + reply.body());
        return problem;
    }

    /** The fields a 400 problem names in its {@code errors}. */
    public static List<String> fields(JsonNode problem) {
        List<String> fields = new ArrayList<>();
        if (problem.has("errors") && problem.get("errors").isArray()) {
            problem.get("errors").forEach(error -> fields.add(error.get("field").asText()));
        }
        return fields;
    }
}
