package io.overseer.remoteservice;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** The current fault rules and the dice. Rules live in memory only: a restart heals the service. */
final class FaultInjector {

    private final Map<String, FaultRule> rules = new ConcurrentHashMap<>();

    /** Sets the rule for its operation, replacing any earlier one, and returns all rules. */
    List<FaultRule> put(FaultRule rule) {
        rules.put(rule.operation(), rule);
        return rules();
    }

    List<FaultRule> rules() {
        return rules.values().stream().sorted(Comparator.comparing(FaultRule::operation)).toList();
    }

    void clear() {
        rules.clear();
    }

    /** The fault this request suffers, if any: the operation's own rule wins over {@code "*"}. */
    Optional<FaultRule> draw(String operation) {
        FaultRule rule = rules.get(operation);
        if (rule == null) {
            rule = rules.get(FaultRule.ANY_OPERATION);
        }
        if (rule == null || rule.mode() == FaultMode.NONE) {
            return Optional.empty();
        }
        // nextDouble() is in [0, 1), so rate 1.0 always hits and rate 0.0 never does.
        return ThreadLocalRandom.current().nextDouble() < rule.rate() ? Optional.of(rule) : Optional.empty();
    }
}
