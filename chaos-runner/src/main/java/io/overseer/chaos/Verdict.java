package io.overseer.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker found: each violation under the rule it breaks, and the counts the report's JSON line
 * carries. A rule that could not be checked says so in {@link #notChecked} instead of passing.
 */
public final class Verdict {

    /** The checker's rules, in the order the report lists them. */
    public enum Rule {
        LOST("lost"), DUPLICATED("duplicated"), REFUSED("refused"), STUCK("stuck"), ERROR_WITHOUT_ALERT("errorWithoutAlert"),
        APPLIED_TWICE("appliedTwice"), EFFECTS("effects"), TRANSITIONS("transitions"), NOTIFICATIONS("notifications"),
        DEAD_LETTERS("deadLetters");

        private final String jsonName;

        Rule(String jsonName) {
            this.jsonName = jsonName;
        }

        public String jsonName() {
            return jsonName;
        }
    }

    private final Map<Rule, List<String>> violations = new LinkedHashMap<>();
    private final Map<Rule, Long> counts = new LinkedHashMap<>();
    private final List<String> notChecked = new ArrayList<>();

    Verdict() {
        for (Rule rule : Rule.values()) {
            violations.put(rule, new ArrayList<>());
            counts.put(rule, 0L);
        }
    }

    void add(Rule rule, String violation) {
        violations.get(rule).add(violation);
        counts.merge(rule, 1L, Long::sum);
    }

    /**
     * For a rule whose count is not its number of violations: appliedTwice is the larger of the ledger's own
     * count and the (order, operation) pairs found twice, not their sum (both see the same effects).
     */
    void setCount(Rule rule, long n) {
        counts.put(rule, n);
    }

    void notChecked(String what) {
        notChecked.add(what);
    }

    public long count(Rule rule) {
        return counts.get(rule);
    }

    public List<String> violations(Rule rule) {
        return Collections.unmodifiableList(violations.get(rule));
    }

    public long total() {
        return violations.values().stream().mapToLong(List::size).sum();
    }

    public List<String> notChecked() {
        return Collections.unmodifiableList(notChecked);
    }

    public boolean clean() {
        return total() == 0;
    }
}
