package io.overseer.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The submissions of a run, drawn from the run's {@link Random} after the fault schedule: for each, the
 * channel (REST about two in three), whether it is sent twice on purpose (one in ten), and, once in every 250,
 * a malformed JMS message in its place (at fixed places, so even a short run has some).
 */
public final class WorkloadPlan {

    static final double REST_SHARE = 0.65;
    static final double DUPLICATE_SHARE = 0.10;
    static final int BAD_EVERY = 250;

    private WorkloadPlan() {
    }

    public static List<PlannedOrder> draw(Random random, int orders, String runId) {
        List<PlannedOrder> plan = new ArrayList<>(orders);
        for (int i = 0; i < orders; i++) {
            boolean bad = i % BAD_EVERY == BAD_EVERY / 2;
            PlannedOrder.Channel channel = bad || random.nextDouble() >= REST_SHARE
                    ? PlannedOrder.Channel.JMS : PlannedOrder.Channel.REST;
            boolean duplicate = !bad && random.nextDouble() < DUPLICATE_SHARE;
            plan.add(new PlannedOrder(i, channel, runId + "-k" + i, runId + "-c" + i, duplicate, bad));
        }
        return List.copyOf(plan);
    }
}
