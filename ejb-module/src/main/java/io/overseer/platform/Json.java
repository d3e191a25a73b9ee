package io.overseer.platform;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;

/** The application's one JSON-B instance (thread-safe, expensive to create). */
public final class Json {

    private static final Jsonb JSONB = JsonbBuilder.create();

    private Json() {
    }

    public static String write(Object value) {
        return JSONB.toJson(value);
    }

    /** Parses JSON; malformed input throws {@link jakarta.json.bind.JsonbException}. */
    public static <T> T read(String json, Class<T> type) {
        return JSONB.fromJson(json, type);
    }
}
