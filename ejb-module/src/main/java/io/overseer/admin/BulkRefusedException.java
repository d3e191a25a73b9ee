package io.overseer.admin;

import jakarta.ejb.ApplicationException;

/**
 * A bulk job that cannot start as asked: it would act on everything without the operator saying so, on
 * nothing, or on more than a job may. Answered 400, naming {@code field}; nothing was written.
 */
@ApplicationException(rollback = true)
public class BulkRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String field;

    public BulkRefusedException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
