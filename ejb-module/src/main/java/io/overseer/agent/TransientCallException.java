package io.overseer.agent;

/**
 * A transient outcome (5xx, 408/409/425/429, timeout, connection failure) raised as an exception, so the
 * circuit breaker counts it as a failure. Business refusals (other 4xx) are returned, not thrown, and so
 * never open the circuit.
 */
public class TransientCallException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient CallResult result;

    public TransientCallException(CallResult result) {
        super(result.detail(), null, false, false);
        this.result = result;
    }

    public CallResult result() {
        return result;
    }
}
