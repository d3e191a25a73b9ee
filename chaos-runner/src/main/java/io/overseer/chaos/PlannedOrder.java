package io.overseer.chaos;

/**
 * One submission of the workload, drawn from the seed.
 *
 * @param key        the submission key (REST Idempotency-Key, JMS idempotencyKey): retries and the
 *                   deliberate duplicate carry the same one, so they must make one order
 * @param customerId unique per submission: how the checker finds its order in the database
 * @param duplicate  whether the submitter sends it a second time once it was accepted
 * @param bad        a deliberately malformed JMS message, which the application must dead-letter with a reason
 */
public record PlannedOrder(int index, Channel channel, String key, String customerId, boolean duplicate, boolean bad) {

    public enum Channel { REST, JMS }
}
