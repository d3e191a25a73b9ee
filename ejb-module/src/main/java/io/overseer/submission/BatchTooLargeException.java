package io.overseer.submission;

/**
 * A batch of more orders than {@value BatchSubmission#MAX_BATCH_PROPERTY} allows: refused whole, nothing
 * stored. The sender splits it.
 */
public class BatchTooLargeException extends InvalidOrderException {

    private static final long serialVersionUID = 1L;

    private final int max;

    public BatchTooLargeException(int size, int max) {
        super("a batch holds at most " + max + " orders, not " + size + "; split it");
        this.max = max;
    }

    public int max() {
        return max;
    }
}
