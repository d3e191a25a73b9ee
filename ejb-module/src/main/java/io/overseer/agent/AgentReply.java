package io.overseer.agent;

/** An agent's answer to one {@link AgentRequest}, naming the attempt (epoch, step, token) it answers. */
public record AgentReply(String orderId, long epoch, int stepSeq, String token, String operation, Outcome outcome,
                         String detail) {

    public enum Outcome {
        /** The remote service applied the effect (now or on an earlier attempt). */
        SUCCEEDED,
        /** The remote service refused for good (a nontransient fault); retrying cannot help. */
        FAILED,
        /** Not attempted: the agent's instance is shutting down and hands the attempt back at once. */
        HANDED_BACK
    }

    public static AgentReply succeeded(AgentRequest request, String detail) {
        return new AgentReply(request.orderId(), request.epoch(), request.stepSeq(), request.token(), request.operation(),
                Outcome.SUCCEEDED, detail);
    }

    public static AgentReply handedBack(AgentRequest request, String detail) {
        return new AgentReply(request.orderId(), request.epoch(), request.stepSeq(), request.token(), request.operation(),
                Outcome.HANDED_BACK, detail);
    }

    public static AgentReply failed(AgentRequest request, String detail) {
        return new AgentReply(request.orderId(), request.epoch(), request.stepSeq(), request.token(), request.operation(),
                Outcome.FAILED, detail);
    }
}
