package io.overseer.messaging;

import jakarta.ejb.ApplicationException;

/** The broker did not take a send; the transaction of the send rolls back, and the sender retries. */
@ApplicationException(rollback = true)
public class BrokerUnavailableException extends Exception {

    private static final long serialVersionUID = 1L;

    public BrokerUnavailableException(Throwable cause) {
        super(cause.toString(), cause);
    }
}
