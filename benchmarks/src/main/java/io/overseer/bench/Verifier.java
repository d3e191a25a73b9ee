package io.overseer.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The checks a user would make after a phase: every order submitted exists once, is final and Processed,
 * finished each of its steps once, and the simulator applied no effect twice. Any problem fails the run.
 */
final class Verifier {

    /**
     * {@code effectsPerOrder} for a phase that shares the simulator with other work (the bulk job's orders):
     * its applied effects are not counted here but by the caller, over everything; appliedTwice still is.
     */
    static final long SHARED_SIMULATOR = -1;

    private Verifier() {
    }

    /**
     * @param expected     orders the phase submitted (each with its own customerId)
     * @param acceptedIds  order ids the REST answers named (null for JMS, which answers nothing)
     * @param stepsPerOrder steps of the phase's workflow
     */
    static List<String> check(String phase, PhaseData d, int expected, Collection<String> acceptedIds, int stepsPerOrder,
                              Simulator.Stats before, Simulator.Stats after, long effectsPerOrder) {
        List<String> problems = new ArrayList<>();
        if (d.customers.size() != expected) {
            problems.add(expected + " orders submitted, " + d.customers.size() + " found in customer_order");
        }
        long doubled = d.customers.values().stream().filter(n -> n > 1).count();
        if (doubled > 0) {
            problems.add(doubled + " submissions made more than one order");
        }
        if (acceptedIds != null) {
            long missing = acceptedIds.stream().filter(id -> !d.orders.containsKey(id)).count();
            if (missing > 0) {
                problems.add(missing + " accepted order ids not in the database");
            }
        }
        long notProcessed = d.orders.values().stream().filter(t -> !"Processed".equals(t.state)).count();
        if (notProcessed > 0) {
            problems.add(notProcessed + " orders not Processed (e.g. " + d.orders.values().stream()
                    .filter(t -> !"Processed".equals(t.state)).limit(3).map(t -> t.orderId + "=" + t.state).toList() + ")");
        }
        long badEnd = d.orders.values().stream().filter(t -> t.processedRows != 1).count();
        if (badEnd > 0) {
            problems.add(badEnd + " orders without exactly one Processed transition in order_history");
        }
        long badSteps = d.orders.values().stream().filter(t -> t.completedSteps.size() != stepsPerOrder).count();
        if (badSteps > 0) {
            problems.add(badSteps + " orders without their " + stepsPerOrder + " completed steps");
        }
        if (after.appliedTwice() != 0) {
            problems.add("simulator appliedTwice = " + after.appliedTwice());
        }
        long applied = after.applied() - before.applied();
        if (effectsPerOrder != SHARED_SIMULATOR && applied != effectsPerOrder * expected) {
            problems.add("simulator applied " + applied + " effects, expected " + effectsPerOrder * expected);
        }
        problems.replaceAll(p -> phase + ": " + p);
        return problems;
    }
}
