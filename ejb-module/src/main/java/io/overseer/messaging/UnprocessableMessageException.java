package io.overseer.messaging;

/** A message that can never be processed as it stands; the exception's message is the dead-letter reason. */
public class UnprocessableMessageException extends Exception {

    private static final long serialVersionUID = 1L;

    public UnprocessableMessageException(String reason) {
        super(reason);
    }
}
