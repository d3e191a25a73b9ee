package io.overseer.chaos;

import io.overseer.chaos.History.StoredOrder;
import io.overseer.chaos.Verdict.Rule;
import java.util.Map;

/**
 * The simulator's ledger against the orders: no operation applied twice for one order (the ledger's own
 * appliedTwice, and counted here per order); a Processed order has each forward effect exactly once and
 * nothing undone; a Compensated order has every effect it applied undone; no effect names an unknown order.
 */
final class EffectRules {

    private final Map<String, String> compensationOf;

    EffectRules(Map<String, String> compensationOf) {
        this.compensationOf = compensationOf;
    }

    void check(History h, Verdict v) {
        if (h.appliedTwice() > 0) {
            v.add(Rule.APPLIED_TWICE, "the simulator's ledger counts appliedTwice = " + h.appliedTwice());
        }
        Map<String, Map<String, Integer>> byOrder = HistoryChecker.effectsByOrder(h.effects());
        long twice = 0;
        for (Map.Entry<String, Map<String, Integer>> e : byOrder.entrySet()) {
            String orderId = e.getKey();
            for (Map.Entry<String, Integer> op : e.getValue().entrySet()) {
                if (op.getValue() > 1) {
                    twice++;
                    v.add(Rule.APPLIED_TWICE, orderId + ": " + op.getKey() + " applied " + op.getValue() + " times");
                }
            }
            StoredOrder order = h.orders().get(orderId);
            if (order == null) {
                v.add(Rule.EFFECTS, "effects " + e.getValue() + " for order " + orderId + ", which is not in the database");
            } else {
                balance(order, e.getValue(), v);
            }
        }
        for (StoredOrder o : h.orders().values()) {
            if ("Processed".equals(o.processState()) && !byOrder.containsKey(o.orderId())) {
                v.add(Rule.EFFECTS, o.orderId() + " is Processed but the ledger has no effect for it");
            }
        }
        v.setCount(Rule.APPLIED_TWICE, Math.max(h.appliedTwice(), twice));
    }

    private void balance(StoredOrder order, Map<String, Integer> applied, Verdict v) {
        for (Map.Entry<String, String> step : compensationOf.entrySet()) {
            boolean done = applied.containsKey(step.getKey());
            boolean undone = applied.containsKey(step.getValue());
            switch (order.processState()) {
                case "Processed" -> {
                    if (!done || undone) {
                        v.add(Rule.EFFECTS, order.orderId() + " is Processed but " + step.getKey()
                                + (done ? " was undone" : " was never applied"));
                    }
                }
                case "Compensated" -> {
                    if (done && !undone) {
                        v.add(Rule.EFFECTS, order.orderId() + " is Compensated but " + step.getKey()
                                + " was applied and never undone (" + step.getValue() + ")");
                    }
                }
                default -> {
                    // Error: an operator is to decide; anything else is already reported as stuck.
                }
            }
        }
    }
}
