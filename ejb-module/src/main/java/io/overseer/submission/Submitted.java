package io.overseer.submission;

/**
 * The answer to a submission: the order's id, and whether it was created now or by an earlier
 * submission with the same {@link SubmissionKey} ({@code replayed}: nothing new was written).
 */
public record Submitted(String orderId, boolean replayed) {
}
