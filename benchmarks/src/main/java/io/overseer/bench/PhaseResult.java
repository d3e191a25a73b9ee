package io.overseer.bench;

import java.util.List;

/**
 * The figures of one measured phase. Rates come from order_history timestamps: {@code window} is first
 * claim (overhead) or first submission (end to end) to the last Processed.
 */
record PhaseResult(
        String name,
        String description,
        int orders,
        Load.Result load,
        double offeredRate,     // paced phases: orders/s asked for; 0 = as fast as the clients go
        double windowSeconds,
        double ordersPerSecond,
        double stepsPerSecond,
        double drainPerSecond,  // bursts (overhead, end to end): orders Processed after the last submission, per second
        long drainOrders,       // how many those were (0 for a paced phase)
        double drainSeconds,    // the last submission to the last Processed
        List<Double> latenciesMs, // sorted
        double maxRssMiB,
        double[] load1,         // min, mean, max of the 1-minute load average
        CostMeter.Costs costs,  // per order: CPU-ms per process, commits, statements, messages; null if not counted
        PhaseData.Hops hops,    // where the time of each order went, hop by hop
        double agentCallMs,     // the agents' own mean time per remote call over the phase; NaN if unknown
        List<String> problems) {

    double p(double percentile) {
        return Stats.percentile(latenciesMs, percentile);
    }
}
