package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.chaos.History.DeadLetter;
import io.overseer.chaos.History.Effect;
import io.overseer.chaos.History.Notice;
import io.overseer.chaos.History.Outcome;
import io.overseer.chaos.History.StoredOrder;
import io.overseer.chaos.History.Submission;
import io.overseer.chaos.History.Transition;
import io.overseer.chaos.Verdict.Rule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of the checker, on a history built by hand to break it, and a clean history that breaks none. */
class HistoryCheckerTest {

    private final HistoryChecker checker = HistoryChecker.forDefaultWorkflow();

    private Verdict check(Histories h) {
        return checker.check(h.build());
    }

    private static void onlyBroken(Verdict v, Rule rule, int violations) {
        for (Rule r : Rule.values()) {
            assertEquals(r == rule ? violations : 0, v.violations(r).size(), r + ": " + v.violations(r));
        }
    }

    @Test
    void aCleanHistoryBreaksNoRule() {
        Verdict v = check(new Histories().processedRest("1").processedJms("2").compensatedRest("3"));
        assertTrue(v.clean(), () -> "violations: " + v.total());
        assertTrue(v.notChecked().isEmpty());
    }

    @Test
    void anAcceptedSubmissionWithoutItsOrderIsLost() {
        Histories h = new Histories().processedRest("1");
        h.submissions.add(new Submission("k9", "c9", PlannedOrder.Channel.JMS, Outcome.ACCEPTED, List.of(), false, null));
        Verdict v = check(h);
        onlyBroken(v, Rule.LOST, 1);
        assertEquals(1, v.count(Rule.LOST));
    }

    @Test
    void anOrderIdAnsweredWith202ButNotStoredIsLost() {
        Histories h = new Histories().processedRest("1");
        h.submissions.set(0, new Submission("k1", "c1", PlannedOrder.Channel.REST, Outcome.ACCEPTED,
                List.of("o1", "o1", "ghost"), true, null));
        Verdict v = check(h);
        assertEquals(1, v.violations(Rule.LOST).size());
        assertEquals(1, v.violations(Rule.DUPLICATED).size(), "two different order ids for one key");
    }

    @Test
    void aSubmissionThatGaveUpIsNotLost() {
        Histories h = new Histories().processedRest("1");
        h.submissions.add(new Submission("k9", "c9", PlannedOrder.Channel.REST, Outcome.GAVE_UP, List.of(), false, "timeout"));
        assertTrue(check(h).clean());
    }

    @Test
    void twoOrdersForOneSubmissionAreDuplicated() {
        Histories h = new Histories().processedRest("1");
        h.orders.put("o1b", new StoredOrder("o1b", "c1", "Processed", Histories.T0, Histories.processedHistory()));
        Histories.FORWARD.forEach(op -> h.effects.add(new Effect("o1b", op, op)));
        onlyBroken(check(h), Rule.DUPLICATED, 1);
    }

    @Test
    void aValidOrderRefusedWith4xxIsReported() {
        Histories h = new Histories().processedRest("1");
        h.submissions.add(new Submission("k9", "c9", PlannedOrder.Channel.REST, Outcome.REFUSED, List.of(), false, "422"));
        onlyBroken(check(h), Rule.REFUSED, 1);
    }

    @Test
    void anOrderNotFinalIsStuck() {
        Histories h = new Histories().processedRest("1");
        List<Transition> running = new ArrayList<>(Histories.processedHistory().subList(0, 4));
        h.replace("1", "Processing", running);
        h.effects.removeIf(e -> !e.operation().equals(Histories.FORWARD.get(0)));
        onlyBroken(check(h), Rule.STUCK, 1);
    }

    @Test
    void anOrderInErrorNeedsAnAlert() {
        Histories h = new Histories().processedRest("1");
        List<Transition> error = new ArrayList<>(Histories.processedHistory().subList(0, 3));
        Histories.add(error, Histories.FORWARD.get(0), "Running", "TimedOut");
        Histories.add(error, null, "Processing", "Error");
        h.replace("1", "Error", error);
        h.effects.clear();
        onlyBroken(check(h), Rule.ERROR_WITHOUT_ALERT, 1);
        h.alerted.add("o1");
        assertTrue(check(h).clean());
    }

    @Test
    void anEffectAppliedTwiceIsCountedFromTheLedgerAndPerOrder() {
        Histories h = new Histories().processedRest("1");
        h.effects.add(new Effect("o1", Histories.FORWARD.get(1), "another key"));
        h.appliedTwice = 1;
        Verdict v = check(h);
        onlyBroken(v, Rule.APPLIED_TWICE, 2);
        assertEquals(1, v.count(Rule.APPLIED_TWICE));
    }

    @Test
    void aProcessedOrderMissingAnEffectOrACompensatedOneLeavingOneAppliedBreaksTheEffectsRule() {
        Histories h = new Histories().processedRest("1").compensatedRest("2");
        h.effects.removeIf(e -> e.orderId().equals("o1") && e.operation().equals(Histories.FORWARD.get(2)));
        h.effects.removeIf(e -> e.orderId().equals("o2") && e.operation().equals(Histories.UNDO.get(0)));
        onlyBroken(check(h), Rule.EFFECTS, 2);
    }

    @Test
    void aStateThatGoesBackwardsOrSkipsASeqBreaksTheTransitionRule() {
        Histories h = new Histories().processedRest("1").processedRest("2");
        List<Transition> backwards = new ArrayList<>(Histories.processedHistory());
        Histories.add(backwards, null, "Processed", "Processing"); // Processed is final
        Histories.add(backwards, null, "Processing", "Processed");
        h.replace("1", "Processed", backwards);
        List<Transition> gap = new ArrayList<>(Histories.processedHistory());
        gap.remove(3);
        h.replace("2", "Processed", gap);
        Verdict v = check(h);
        assertTrue(v.violations(Rule.TRANSITIONS).stream().anyMatch(p -> p.contains("o1") && p.contains("not a legal")),
                v.violations(Rule.TRANSITIONS)::toString);
        assertTrue(v.violations(Rule.TRANSITIONS).stream().anyMatch(p -> p.contains("o2") && p.contains("seq")),
                v.violations(Rule.TRANSITIONS)::toString);
        assertEquals(v.total(), v.violations(Rule.TRANSITIONS).size());
    }

    @Test
    void aStateRowThatDisagreesWithTheHistoryBreaksTheTransitionRule() {
        Histories h = new Histories().processedRest("1");
        h.replace("1", "Compensated", Histories.processedHistory());
        assertEquals(1, check(h).violations(Rule.TRANSITIONS).size());
    }

    @Test
    void aMissingOrInventedNotificationBreaksTheNotificationRuleButARepeatedOneDoesNot() {
        Histories h = new Histories().processedJms("1").processedJms("2");
        List<Notice> one = new ArrayList<>(h.notifications.get("o1"));
        one.add(one.get(1)); // the relay sent it again: same event, step and time
        h.notifications.put("o1", one);
        assertTrue(check(h).clean());
        List<Notice> two = new ArrayList<>(h.notifications.get("o2"));
        two.removeIf(n -> n.event().equals("processed"));
        two.add(new Notice("compensated", null, "t99"));
        h.notifications.put("o2", two);
        onlyBroken(check(h), Rule.NOTIFICATIONS, 2);
    }

    @Test
    void notificationsNotCollectedAreSaidToBeNotChecked() {
        Histories h = new Histories().processedJms("1");
        h.notifications = null;
        Verdict v = check(h);
        assertTrue(v.clean());
        assertEquals(1, v.notChecked().size());
    }

    @Test
    void theDlqMayHoldOnlyTheMalformedMessagesEachWithAReason() {
        Histories h = new Histories().processedRest("1");
        h.badSent.addAll(List.of("bad1", "bad2"));
        h.deadLetters.add(new DeadLetter("m1", "not JSON", "orders", "bad1"));
        h.deadLetters.add(new DeadLetter("m2", "not JSON", "orders", "bad1")); // a second copy after a crash: fine
        h.deadLetters.add(new DeadLetter("m3", null, "agent.replies", null)); // no reason, not meant
        Verdict v = check(h);
        // m3 twice (no reason; not meant), bad2 never dead-lettered
        onlyBroken(v, Rule.DEAD_LETTERS, 3);
    }
}
