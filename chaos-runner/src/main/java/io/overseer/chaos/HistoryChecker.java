package io.overseer.chaos;

import io.overseer.chaos.History.DeadLetter;
import io.overseer.chaos.History.Effect;
import io.overseer.chaos.History.Notice;
import io.overseer.chaos.History.Outcome;
import io.overseer.chaos.History.StoredOrder;
import io.overseer.chaos.History.Submission;
import io.overseer.chaos.Verdict.Rule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The rules a history must keep, whatever faults it went through: nothing accepted is lost, nothing is
 * made twice, every order is final (in Error only with an alert), no effect is applied twice and none is
 * left half-done, every history is a legal walk, submitters were told exactly what happened, and the
 * DLQ holds only what was meant to be rejected. Pure: it reads a {@link History} and returns a {@link Verdict}.
 */
public final class HistoryChecker {

    private final Map<String, String> compensationOf;

    /** @param compensationOf each forward operation of the workflow → its compensating operation */
    public HistoryChecker(Map<String, String> compensationOf) {
        this.compensationOf = Map.copyOf(compensationOf);
    }

    /** The default workflow "order" of workflows.json. */
    public static HistoryChecker forDefaultWorkflow() {
        Map<String, String> ops = new HashMap<>();
        for (int i = 0; i < FaultPlan.FORWARD.size(); i++) {
            ops.put(FaultPlan.FORWARD.get(i), FaultPlan.COMPENSATIONS.get(i));
        }
        return new HistoryChecker(ops);
    }

    public Verdict check(History h) {
        Verdict v = new Verdict();
        Map<String, List<StoredOrder>> byCustomer = h.orders().values().stream()
                .collect(Collectors.groupingBy(StoredOrder::customerId));
        submissions(h, byCustomer, v);
        byCustomer.forEach((customer, orders) -> {
            if (orders.size() > 1) {
                v.add(Rule.DUPLICATED, "customer " + customer + " has " + orders.size() + " orders: "
                        + orders.stream().map(StoredOrder::orderId).toList());
            }
        });
        for (StoredOrder o : h.orders().values()) {
            finality(o, h.alertedOrders(), v);
            Transitions.problems(o.orderId(), o.history()).forEach(p -> v.add(Rule.TRANSITIONS, p));
        }
        new EffectRules(compensationOf).check(h, v);
        notifications(h, byCustomer, v);
        deadLetters(h, v);
        return v;
    }

    private static void submissions(History h, Map<String, List<StoredOrder>> byCustomer, Verdict v) {
        for (Submission s : h.submissions()) {
            if (s.outcome() == Outcome.REFUSED) {
                v.add(Rule.REFUSED, s.key() + " (" + s.channel() + ") refused: " + s.lastError());
            }
            if (s.outcome() == Outcome.ACCEPTED && !byCustomer.containsKey(s.customerId())) {
                v.add(Rule.LOST, s.key() + " (" + s.channel() + ") was accepted but no order has customer "
                        + s.customerId());
            }
            Set<String> answered = new LinkedHashSet<>(s.answeredOrderIds());
            if (answered.size() > 1) {
                v.add(Rule.DUPLICATED, s.key() + ": answers named " + answered.size() + " orders " + answered);
            }
            for (String id : answered) {
                if (!h.orders().containsKey(id)) {
                    v.add(Rule.LOST, s.key() + ": order " + id + " named by a 202 is not in the database");
                }
            }
        }
    }

    private static void finality(StoredOrder o, Set<String> alerted, Verdict v) {
        if (!Transitions.FINAL.contains(o.processState())) {
            v.add(Rule.STUCK, o.orderId() + " is still " + o.processState());
        } else if ("Error".equals(o.processState()) && !alerted.contains(o.orderId())) {
            v.add(Rule.ERROR_WITHOUT_ALERT, o.orderId() + " is in Error and no alert names it");
        }
        String last = o.history().stream().filter(t -> t.step() == null).reduce((a, b) -> b)
                .map(History.Transition::to).orElse(null);
        if (!o.processState().equals(last)) {
            v.add(Rule.TRANSITIONS, o.orderId() + ": order_state says " + o.processState()
                    + " but its history ends at " + last);
        }
    }

    /** Orders submitted over JMS asked for notifications on the run's reply queue; REST ones did not. */
    private static void notifications(History h, Map<String, List<StoredOrder>> byCustomer, Verdict v) {
        if (h.notifications() == null) {
            v.notChecked("notifications (not collected)");
            return;
        }
        Set<String> notified = new LinkedHashSet<>();
        for (Submission s : h.submissions()) {
            if (s.channel() == PlannedOrder.Channel.JMS) {
                byCustomer.getOrDefault(s.customerId(), List.of()).forEach(o -> notified.add(o.orderId()));
            }
        }
        for (String orderId : notified) {
            List<String> expected = ExpectedNotices.of(h.orders().get(orderId).history());
            List<String> received = distinct(h.notifications().getOrDefault(orderId, List.of()));
            Map<String, Integer> diff = difference(expected, received);
            diff.forEach((label, n) -> v.add(Rule.NOTIFICATIONS, orderId + ": " + (n > 0
                    ? n + " × \"" + label + "\" never received" : -n + " × \"" + label + "\" received, no such transition")));
        }
        h.notifications().keySet().stream().filter(id -> !notified.contains(id)).forEach(id ->
                v.add(Rule.NOTIFICATIONS, id + ": notifications received for an order that asked for none"));
    }

    /** A notification sent again (the relay is at-least-once) is the same event, step and time: counted once. */
    private static List<String> distinct(List<Notice> notices) {
        return notices.stream().distinct().map(n -> ExpectedNotices.label(n.event(), n.step())).toList();
    }

    /** label → expected count minus received count, for the labels where they differ. */
    private static Map<String, Integer> difference(List<String> expected, List<String> received) {
        Map<String, Integer> diff = new TreeMap<>();
        expected.forEach(l -> diff.merge(l, 1, Integer::sum));
        received.forEach(l -> diff.merge(l, -1, Integer::sum));
        diff.values().removeIf(n -> n == 0);
        return diff;
    }

    private static void deadLetters(History h, Verdict v) {
        Set<String> found = new LinkedHashSet<>();
        for (DeadLetter d : h.deadLetters()) {
            if (d.reason() == null || d.reason().isBlank()) {
                v.add(Rule.DEAD_LETTERS, "dead letter " + d.messageId() + " from " + d.origin() + " has no dlqReason");
            }
            if (d.badId() == null || !h.badMessagesSent().contains(d.badId())) {
                v.add(Rule.DEAD_LETTERS, "dead letter " + d.messageId() + " from " + d.origin()
                        + " was not meant to be rejected: " + d.reason());
            } else {
                found.add(d.badId());
            }
        }
        List<String> missing = new ArrayList<>(h.badMessagesSent());
        missing.removeAll(found);
        missing.forEach(id -> v.add(Rule.DEAD_LETTERS, "malformed message " + id + " was accepted by the broker"
                + " but is not in the DLQ"));
    }

    /** Effects counted per order and operation. */
    static Map<String, Map<String, Integer>> effectsByOrder(List<Effect> effects) {
        Map<String, Map<String, Integer>> byOrder = new HashMap<>();
        for (Effect e : effects) {
            byOrder.computeIfAbsent(e.orderId(), id -> new TreeMap<>()).merge(e.operation(), 1, Integer::sum);
        }
        return byOrder;
    }
}
