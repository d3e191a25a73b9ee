package io.overseer.chaos;

import io.overseer.chaos.History.DeadLetter;
import io.overseer.chaos.History.Effect;
import io.overseer.chaos.History.Notice;
import io.overseer.chaos.History.Outcome;
import io.overseer.chaos.History.StoredOrder;
import io.overseer.chaos.History.Submission;
import io.overseer.chaos.History.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hand-built histories for the checker's tests: a builder that starts from nothing and adds orders as the
 * application would record them (a clean Processed or Compensated run), so that each test breaks one rule.
 */
final class Histories {

    static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    static final List<String> FORWARD = FaultPlan.FORWARD;
    static final List<String> UNDO = FaultPlan.COMPENSATIONS;

    final List<Submission> submissions = new ArrayList<>();
    final Map<String, StoredOrder> orders = new LinkedHashMap<>();
    final List<Effect> effects = new ArrayList<>();
    long appliedTwice;
    final Set<String> alerted = new HashSet<>();
    Map<String, List<Notice>> notifications = new HashMap<>();
    final List<DeadLetter> deadLetters = new ArrayList<>();
    final Set<String> badSent = new HashSet<>();

    History build() {
        return new History(submissions, orders, effects, appliedTwice, alerted, notifications, deadLetters, badSent);
    }

    /** A REST order accepted with 202 and Processed: three steps, each applied once. */
    Histories processedRest(String n) {
        submissions.add(new Submission("k" + n, "c" + n, PlannedOrder.Channel.REST, Outcome.ACCEPTED, List.of("o" + n),
                false, null));
        orders.put("o" + n, new StoredOrder("o" + n, "c" + n, "Processed", T0, processedHistory()));
        FORWARD.forEach(op -> effects.add(new Effect("o" + n, op, "o" + n + ":" + op)));
        return this;
    }

    /** A JMS order, Processed, with every notification it is owed. */
    Histories processedJms(String n) {
        submissions.add(new Submission("k" + n, "c" + n, PlannedOrder.Channel.JMS, Outcome.ACCEPTED, List.of(), false, null));
        List<Transition> history = processedHistory();
        orders.put("o" + n, new StoredOrder("o" + n, "c" + n, "Processed", T0, history));
        FORWARD.forEach(op -> effects.add(new Effect("o" + n, op, "o" + n + ":" + op)));
        List<Notice> notices = new ArrayList<>();
        for (String label : ExpectedNotices.of(history)) {
            String[] parts = label.split(" ");
            notices.add(new Notice(parts[0], parts.length > 1 ? parts[1] : null, "t" + notices.size()));
        }
        notifications.put("o" + n, notices);
        return this;
    }

    /** A REST order whose second step was refused for good: the first undone, Compensated. */
    Histories compensatedRest(String n) {
        submissions.add(new Submission("k" + n, "c" + n, PlannedOrder.Channel.REST, Outcome.ACCEPTED, List.of("o" + n),
                false, null));
        List<Transition> h = new ArrayList<>();
        add(h, null, null, "Pending");
        add(h, null, "Pending", "Processing");
        add(h, FORWARD.get(0), "NotStarted", "Running");
        add(h, FORWARD.get(0), "Running", "Completed");
        add(h, FORWARD.get(1), "NotStarted", "Running");
        add(h, FORWARD.get(1), "Running", "Failed");
        add(h, null, "Processing", "Compensating");
        add(h, FORWARD.get(0), "Completed", "Compensating");
        add(h, FORWARD.get(0), "Compensating", "Compensated");
        add(h, null, "Compensating", "Compensated");
        orders.put("o" + n, new StoredOrder("o" + n, "c" + n, "Compensated", T0, h));
        effects.add(new Effect("o" + n, FORWARD.get(0), "a"));
        effects.add(new Effect("o" + n, UNDO.get(0), "b"));
        return this;
    }

    static List<Transition> processedHistory() {
        List<Transition> h = new ArrayList<>();
        add(h, null, null, "Pending");
        add(h, null, "Pending", "Processing");
        for (String step : FORWARD) {
            add(h, step, "NotStarted", "Running");
            add(h, step, "Running", "Completed");
        }
        add(h, null, "Processing", "Processed");
        return h;
    }

    static void add(List<Transition> h, String step, String from, String to) {
        h.add(new Transition(h.size() + 1, step, from, to, T0.plusSeconds(h.size())));
    }

    /** The same order with its history or state replaced. */
    Histories replace(String n, String state, List<Transition> history) {
        StoredOrder o = orders.get("o" + n);
        orders.put(o.orderId(), new StoredOrder(o.orderId(), o.customerId(), state, o.createdAt(), history));
        return this;
    }
}
