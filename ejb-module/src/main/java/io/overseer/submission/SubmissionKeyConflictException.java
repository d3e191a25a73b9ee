package io.overseer.submission;

/**
 * A submission reused a key (same scope) that an earlier, different request already took: the client
 * must use a new key for a new order. Nothing was written.
 */
public class SubmissionKeyConflictException extends Exception {

    private static final long serialVersionUID = 1L;

    public SubmissionKeyConflictException(String message) {
        super(message);
    }
}
