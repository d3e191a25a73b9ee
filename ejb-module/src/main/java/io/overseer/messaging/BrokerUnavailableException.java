package io.overseer.messaging;

import jakarta.ejb.ApplicationException;

/**
 * The broker did not take a send, or did not answer a management call in time; the transaction of the
 * send rolls back, and the sender retries.
 */
@ApplicationException(rollback = true)
public class BrokerUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    public BrokerUnavailableException(Throwable cause) {
        super(cause.toString(), cause);
    }

    public BrokerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public BrokerUnavailableException(String message) {
        super(message);
    }
}
