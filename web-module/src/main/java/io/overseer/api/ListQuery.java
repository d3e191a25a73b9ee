package io.overseer.api;

import io.overseer.submission.OrderRequest;
import io.overseer.statestore.ProcessState;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The query of {@code GET /api/orders}: an optional state, a page size (1–{@value #MAX_LIMIT}, default
 * {@value #DEFAULT_LIMIT}) and an opaque cursor, the position after which the page starts. Parsed here
 * rather than by JAX-RS, whose conversion failures of query parameters are 404s, so that every bad value
 * is a 400 naming the parameter.
 */
record ListQuery(ProcessState state, int limit, Cursor after, Attribute attribute) {

    /**
     * A filter on one business attribute: {@code name:value} in the query ({@code ?attribute=region:eu}), the
     * name as a submission's attribute names are (OrderRequest.ATTRIBUTE_NAME), the value 1–100 characters.
     */
    record Attribute(String name, String value) {

        static Attribute parse(String text) {
            int colon = text.indexOf(':');
            if (colon < 1 || colon == text.length() - 1 || text.length() > 141) {
                throw new IllegalArgumentException("not name:value");
            }
            String name = text.substring(0, colon);
            String value = text.substring(colon + 1);
            if (!name.matches(OrderRequest.ATTRIBUTE_NAME) || value.length() > 100
                    || !value.matches(OrderRequest.TEXT)) {
                throw new IllegalArgumentException("not name:value");
            }
            return new Attribute(name, value);
        }
    }

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

    /** A page of what the query found, and where the next page starts: null on the last page. */
    record Page<T>(List<T> items, Cursor next) {
    }

    /** Rows to fetch: one more than the page, so that a next page shows itself. */
    int fetch() {
        return limit + 1;
    }

    String attributeName() {
        return attribute == null ? null : attribute.name();
    }

    String attributeValue() {
        return attribute == null ? null : attribute.value();
    }

    OffsetDateTime afterCreatedAt() {
        return after == null ? null : after.createdAt();
    }

    String afterOrderId() {
        return after == null ? null : after.orderId();
    }

    /** {@code found} ({@link #fetch()} rows at most) cut to the page; {@code position} gives a row's cursor. */
    <T> Page<T> page(List<T> found, Function<T, Cursor> position) {
        List<T> page = found.subList(0, Math.min(found.size(), limit));
        return new Page<>(page, found.size() > limit ? position.apply(page.get(page.size() - 1)) : null);
    }

    static ListQuery of(String state, String limit, String after) {
        return of(state, limit, after, null);
    }

    static ListQuery of(String state, String limit, String after, String attribute) {
        QueryParameters query = new QueryParameters();
        ProcessState parsedState = query.optional("state", state, ProcessState::valueOf,
                "must be one of " + Arrays.stream(ProcessState.values()).map(Enum::name).collect(Collectors.joining(", ")));
        Integer parsedLimit = query.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        Cursor cursor = query.optional("after", after, Cursor::decode, "must be the cursor of a previous page's next link");
        Attribute parsedAttribute = query.optional("attribute", attribute, Attribute::parse,
                "must be name:value, the name " + OrderRequest.ATTRIBUTE_NAME + ", the value 1-100 characters of text");
        query.validate();
        return new ListQuery(parsedState, parsedLimit, cursor, parsedAttribute);
    }
}
