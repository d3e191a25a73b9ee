package io.overseer.api;

import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Query parameters of one request, parsed here rather than by JAX-RS (whose conversion failures of query
 * parameters are 404s): each bad one becomes a field error naming it, and {@link #validate()} answers all
 * of them in one 400.
 */
final class QueryParameters {

    /** Turns a parameter's text into its value; throws IllegalArgumentException or DateTimeParseException. */
    interface Parser<T> {
        T parse(String text);
    }

    private final List<Problem.FieldError> errors = new ArrayList<>();

    /** {@code text} parsed; null when absent, and null with a field error when it does not parse. */
    <T> T optional(String name, String text, Parser<T> parser, String message) {
        if (text == null) {
            return null;
        }
        try {
            return parser.parse(text);
        } catch (IllegalArgumentException | DateTimeParseException e) { // NumberFormatException is one too
            errors.add(new Problem.FieldError(name, message));
            return null;
        }
    }

    /** The page size {@code limit}: {@code defaultLimit} when absent, else a whole number from 1 to {@code max}. */
    Integer limit(String text, int defaultLimit, int max) {
        if (text == null) {
            return defaultLimit;
        }
        return optional("limit", text, value -> within(Integer.parseInt(value), 1, max),
                "must be an integer from 1 to " + max);
    }

    /** A field error unless {@code valid}: for checks that need no parsing, such as a length. */
    void require(boolean valid, String name, String message) {
        if (!valid) {
            errors.add(new Problem.FieldError(name, message));
        }
    }

    /** Throws the 400 that names every bad parameter, if there is one. */
    void validate() {
        if (!errors.isEmpty()) {
            throw new InvalidRequestException("The query is not valid", errors);
        }
    }

    static int within(int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("out of range");
        }
        return value;
    }
}
