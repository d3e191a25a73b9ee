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

    /**
     * The items of a message body the courier wrote — {@code {"batch":[item, …]}} — or the one item of a
     * body that holds a single item. Malformed input throws {@link jakarta.json.bind.JsonbException}.
     */
    public static <T> java.util.List<T> readBatch(String json, Class<T> type) {
        String text = json == null ? "" : json.strip();
        if (text.startsWith(BATCH_PREFIX) && text.endsWith("}")) {
            java.lang.reflect.Type list = new java.lang.reflect.ParameterizedType() {
                @Override
                public java.lang.reflect.Type[] getActualTypeArguments() {
                    return new java.lang.reflect.Type[] {type};
                }

                @Override
                public java.lang.reflect.Type getRawType() {
                    return java.util.List.class;
                }

                @Override
                public java.lang.reflect.Type getOwnerType() {
                    return null;
                }
            };
            java.util.List<T> items = JSONB.fromJson(text.substring(BATCH_PREFIX.length(), text.length() - 1), list);
            return items == null ? java.util.List.of() : items;
        }
        T item = read(text, type);
        return item == null ? java.util.List.of() : java.util.List.of(item);
    }

    private static final String BATCH_PREFIX = "{\"batch\":";

    /** Parses JSON; malformed input throws {@link jakarta.json.bind.JsonbException}. */
    public static <T> T read(String json, Class<T> type) {
        return JSONB.fromJson(json, type);
    }
}
