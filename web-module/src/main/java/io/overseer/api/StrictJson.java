package io.overseer.api;

import java.util.Map;
import java.util.LinkedHashMap;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;
import java.io.StringReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Binds a JSON request body to a record, strictly: a field the record does not have, a value of the
 * wrong JSON type, a duplicated key, nesting deeper than {@link #MAX_DEPTH} or trailing text are
 * refused with the path of every offending field (e.g. {@code items[0].quantity}). Ranges and formats are
 * left to Bean Validation on the record. Strict, because a misspelt optional field silently ignored
 * (e.g. "worklfow") would run the wrong task type; and it needs nothing vendor-specific from JSON-B.
 *
 * <p>Supported component types: String, Integer/int, Boolean, List and Map of a supported type, records, and
 * JsonValue (any JSON, left unbound).
 */
final class StrictJson {

    /** The longest map key (an attribute's name) a body may carry. */
    static final int MAX_KEY = 40;

    static final int MAX_DEPTH = 16;
    /**
     * Looked up once: {@code Json.createParser} and {@code Json.createReader} search the class path for a
     * provider on every call, which was a tenth of the CPU a submission costs (JFR, BENCHMARKS.md).
     */
    private static final JsonProvider JSON = JsonProvider.provider();

    private StrictJson() {
    }

    /** The record, or null for an empty body (the resource's @NotNull says it is required). */
    static <T> T read(String text, Class<T> type) {
        if (text.isBlank()) {
            return null;
        }
        checkStructure(text);
        JsonValue tree;
        try (var reader = JSON.createReader(new StringReader(text))) {
            tree = reader.readValue();
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        Object value = bind(tree, type, "", errors);
        if (!errors.isEmpty()) {
            throw new InvalidRequestException("The body does not have the expected fields and types", errors);
        }
        return type.cast(value);
    }

    /**
     * An object already read and checked as part of a body (an order of a batch), bound to a record as
     * strictly as a body; the fields named are the object's own ({@code items[0].sku}).
     */
    static <T> T bind(JsonObject object, Class<T> type) {
        List<Problem.FieldError> errors = new ArrayList<>();
        Object value = bind(object, type, "", errors);
        if (!errors.isEmpty()) {
            throw new InvalidRequestException("The order does not have the expected fields and types", errors);
        }
        return type.cast(value);
    }

    /**
     * Any JSON object, checked as strictly as a record's body (a top-level object, bounded depth, no
     * duplicate keys, no trailing text) but not bound: an external event's body, whose fields are the
     * workflow's business. An empty body is the empty object.
     */
    static JsonObject readObject(String text) {
        if (text == null || text.isBlank()) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }
        checkStructure(text);
        try (var reader = JSON.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** One streaming pass before building a tree: a top-level object, bounded depth, no duplicate keys. */
    private static void checkStructure(String text) {
        Deque<Set<String>> objects = new ArrayDeque<>(); // one key set per open object, null per open array
        try (JsonParser parser = JSON.createParser(new StringReader(text))) {
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                switch (event) {
                    case START_OBJECT, START_ARRAY -> {
                        if (objects.isEmpty() && event != JsonParser.Event.START_OBJECT) {
                            throw new InvalidRequestException("The body must be a JSON object");
                        }
                        if (objects.size() >= MAX_DEPTH) {
                            throw new InvalidRequestException("The body nests deeper than " + MAX_DEPTH + " levels");
                        }
                        objects.push(event == JsonParser.Event.START_OBJECT ? new HashSet<>() : Set.of());
                    }
                    case END_OBJECT, END_ARRAY -> objects.pop();
                    case KEY_NAME -> {
                        if (!objects.peek().add(parser.getString())) {
                            throw new InvalidRequestException("The body repeats a key", List.of(
                                    new Problem.FieldError(shown(parser.getString()), "appears more than once")));
                        }
                    }
                    default -> {
                        if (objects.isEmpty()) {
                            throw new InvalidRequestException("The body must be a JSON object");
                        }
                    }
                }
            }
        } catch (JsonParsingException e) {
            var at = e.getLocation();
            throw new InvalidRequestException("The body is not valid JSON (line " + at.getLineNumber()
                    + ", column " + at.getColumnNumber() + ")");
        }
    }

    private static Object bind(JsonValue value, Type type, String path, List<Problem.FieldError> errors) {
        Class<?> raw = raw(type);
        if (value.getValueType() == JsonValue.ValueType.NULL) {
            return null; // Bean Validation reports a required field
        }
        if (raw == JsonValue.class) {
            return value; // left as JSON, to be bound later on its own (an order of a batch)
        }
        if (raw == String.class) {
            return value instanceof JsonString s ? s.getString() : wrong(path, "must be a string", errors);
        }
        if (raw == Integer.class || raw == int.class) {
            return integer(value, path, errors);
        }
        if (raw == Boolean.class) {
            return switch (value.getValueType()) {
                case TRUE -> Boolean.TRUE;
                case FALSE -> Boolean.FALSE;
                default -> wrong(path, "must be true or false", errors);
            };
        }
        if (raw == List.class) {
            if (!(value instanceof JsonArray array)) {
                return wrong(path, "must be an array", errors);
            }
            Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
            List<Object> list = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                list.add(bind(array.get(i), element, path + "[" + i + "]", errors));
            }
            return list;
        }
        if (raw == Map.class) {
            return value instanceof JsonObject object ? map(object, type, path, errors) : wrong(path, "must be an object", errors);
        }
        if (raw.isRecord()) {
            return value instanceof JsonObject object ? record(object, raw, path, errors)
                    : wrong(path.isEmpty() ? "body" : path, "must be an object", errors);
        }
        throw new IllegalStateException("StrictJson cannot bind " + type);
    }

    /**
     * A JSON object as a map of names to values of the map's value type (attributes). A name longer than
     * {@link #MAX_KEY} is refused here, so that no problem echoes it whole; the rest of what a name may be is
     * the record's own constraints' to say.
     */
    private static Object map(JsonObject object, Type type, String path, List<Problem.FieldError> errors) {
        Type valueType = ((ParameterizedType) type).getActualTypeArguments()[1];
        Map<String, Object> map = new LinkedHashMap<>();
        object.forEach((key, value) -> {
            if (key.length() > MAX_KEY) {
                errors.add(new Problem.FieldError(join(path, shown(key)), "is longer than " + MAX_KEY + " characters"));
            } else {
                map.put(key, bind(value, valueType, join(path, key), errors));
            }
        });
        return map;
    }

    private static Object integer(JsonValue value, String path, List<Problem.FieldError> errors) {
        if (value instanceof JsonNumber number && number.isIntegral()) {
            try {
                return number.intValueExact();
            } catch (ArithmeticException e) {
                return wrong(path, "is out of range", errors);
            }
        }
        return wrong(path, "must be an integer", errors);
    }

    private static Object record(JsonObject object, Class<?> type, String path, List<Problem.FieldError> errors) {
        RecordComponent[] components = type.getRecordComponents();
        Set<String> known = new HashSet<>();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            String name = components[i].getName();
            known.add(name);
            types[i] = components[i].getType();
            JsonValue field = object.getOrDefault(name, JsonValue.NULL);
            values[i] = bind(field, components[i].getGenericType(), join(path, name), errors);
        }
        object.keySet().stream().filter(key -> !known.contains(key)).sorted()
                .forEach(key -> errors.add(new Problem.FieldError(join(path, shown(key)), "is not a known field")));
        if (!errors.isEmpty()) {
            return null;
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(types);
            return canonical.newInstance(values);
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot construct " + type, e);
        }
    }

    private static Object wrong(String path, String message, List<Problem.FieldError> errors) {
        errors.add(new Problem.FieldError(path, message));
        return null;
    }

    /** A client's key name as echoed in a problem: bounded, so a huge key cannot bloat the answer. */
    private static String shown(String key) {
        return key.length() <= 64 ? key : key.substring(0, 64) + "…";
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static Class<?> raw(Type type) {
        return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    }
}
