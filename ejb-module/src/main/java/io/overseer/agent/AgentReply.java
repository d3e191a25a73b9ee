package io.overseer.agent;

/**
 * An agent's answer to one {@link AttemptRequest}, naming the attempt (epoch, step, token) it answers.
 * {@code trace}: the W3C traceparent of the agent's span for the attempt, whose child the span of the reply's
 * application is (null when the order is not traced).
 *
 * <p>One constructor only: JSON-B (Yasson) refuses to read a record that has more than one.
 */
public record AgentReply(String orderId, long epoch, int stepSeq, String token, String operation, Outcome outcome,
                         String detail, String trace) {

    /** This reply, sent from within the agent's span {@code traceparent}. */
    public AgentReply tracedBy(String traceparent) {
        return traceparent == null ? this
                : new AgentReply(orderId, epoch, stepSeq, token, operation, outcome, detail, traceparent);
    }

    public enum Outcome {
        /** The remote service applied the effect (now or on an earlier attempt). */
        SUCCEEDED,
        /** The remote service refused for good (a nontransient fault); retrying cannot help. */
        FAILED,
        /** Not attempted: the agent's instance is shutting down and hands the attempt back at once. */
        HANDED_BACK
    }

    public static AgentReply succeeded(AttemptRequest request, String detail) {
        return new AgentReply(request.orderId(), request.epoch(), request.stepSeq(), request.token(), request.operation(),
                Outcome.SUCCEEDED, detail, null);
    }

    public static AgentReply handedBack(AttemptRequest request, String detail) {
        return new AgentReply(request.orderId(), request.epoch(), request.stepSeq(), request.token(), request.operation(),
                Outcome.HANDED_BACK, detail, null);
    }

    public static AgentReply failed(AttemptRequest request, String detail) {
        return new AgentReply(request.orderId(), request.epoch(), request.stepSeq(), request.token(), request.operation(),
                Outcome.FAILED, detail, null);
    }
}
