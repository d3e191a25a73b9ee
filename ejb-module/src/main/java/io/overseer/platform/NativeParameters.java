package io.overseer.platform;

import jakarta.persistence.Query;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Positional parameters ({@code ?1}, {@code ?2}…) of native queries, the one form that EclipseLink and
 * Hibernate both bind in native SQL: named where a statement is built, bound in the same order where it runs.
 * Here because every actor that reads or writes with native SQL needs the same three steps.
 */
public final class NativeParameters {

    private NativeParameters() {
    }

    /** Adds {@code value} as the next of {@code parameters} and returns its placeholder ("?3" for the third). */
    public static String add(List<Object> parameters, Object value) {
        parameters.add(value);
        return "?" + parameters.size();
    }

    /** "?first,?first+1,…": {@code count} placeholders for an IN list. */
    public static String placeholders(int first, int count) {
        return IntStream.range(first, first + count).mapToObj(i -> "?" + i).collect(Collectors.joining(","));
    }

    /** Binds {@code values}, in order, to ?first, ?first+1, …; returns the query. */
    public static <Q extends Query> Q bind(Q query, int first, Collection<?> values) {
        int position = first;
        for (Object value : values) {
            query.setParameter(position++, value);
        }
        return query;
    }
}
