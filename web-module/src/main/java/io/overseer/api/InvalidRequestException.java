package io.overseer.api;

import java.util.List;

/**
 * A request refused before it reaches the application: a body that is not JSON of the expected shape,
 * or query parameters out of range. Answered 400 with the offending fields, by {@link ProblemMappers}.
 */
public class InvalidRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<Problem.FieldError> errors;

    public InvalidRequestException(String detail, List<Problem.FieldError> errors) {
        super(detail);
        this.errors = List.copyOf(errors);
    }

    public InvalidRequestException(String detail) {
        this(detail, List.of());
    }

    public List<Problem.FieldError> errors() {
        return errors;
    }
}
