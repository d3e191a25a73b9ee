package io.overseer.api;

import io.overseer.statestore.ProcessState;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The query of {@code GET /api/orders}: an optional state, a page size (1–{@value #MAX_LIMIT}, default
 * {@value #DEFAULT_LIMIT}) and an opaque cursor, the position after which the page starts. Parsed here
 * rather than by JAX-RS, whose conversion failures of query parameters are 404s, so that every bad value
 * is a 400 naming the parameter.
 */
record ListQuery(ProcessState state, int limit, Cursor after) {

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 200;

    /** A position in the listing's order: (createdAt, orderId). Encoded as base64url, opaque to clients. */
    record Cursor(OffsetDateTime createdAt, String orderId) {

        String encode() {
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((createdAt.toInstant() + "|" + orderId).getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String text) {
            String[] parts = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split("\\|", 2);
            if (parts.length != 2 || parts[1].isEmpty() || parts[1].length() > 36) {
                throw new IllegalArgumentException("not a cursor");
            }
            return new Cursor(OffsetDateTime.parse(parts[0]).withOffsetSameInstant(ZoneOffset.UTC), parts[1]);
        }
    }

    static ListQuery of(String state, String limit, String after) {
        List<Problem.FieldError> errors = new ArrayList<>();
        ProcessState parsedState = state == null ? null : parse(() -> ProcessState.valueOf(state), errors, "state",
                "must be one of " + Arrays.stream(ProcessState.values()).map(Enum::name).collect(Collectors.joining(", ")));
        Integer parsedLimit = limit == null ? Integer.valueOf(DEFAULT_LIMIT) : parse(() -> inRange(limit), errors, "limit",
                "must be an integer from 1 to " + MAX_LIMIT);
        Cursor cursor = after == null ? null : parse(() -> Cursor.decode(after), errors, "after",
                "must be the cursor of a previous page's next link");
        if (!errors.isEmpty()) {
            throw new InvalidRequestException("The query is not valid", errors);
        }
        return new ListQuery(parsedState, parsedLimit, cursor);
    }

    private static int inRange(String limit) {
        int value = Integer.parseInt(limit);
        if (value < 1 || value > MAX_LIMIT) {
            throw new IllegalArgumentException("out of range");
        }
        return value;
    }

    private interface Parser<T> {
        T parse();
    }

    private static <T> T parse(Parser<T> parser, List<Problem.FieldError> errors, String field, String message) {
        try {
            return parser.parse();
        } catch (IllegalArgumentException | DateTimeParseException e) { // NumberFormatException is one too
            errors.add(new Problem.FieldError(field, message));
            return null;
        }
    }
}
