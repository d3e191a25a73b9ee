package io.overseer.submission;

/** An order that can never be accepted as it stands (malformed or invalid); the message says why. */
public class InvalidOrderException extends Exception {

    private static final long serialVersionUID = 1L;

    public InvalidOrderException(String reason) {
        super(reason);
    }
}
