package io.overseer.system;

import com.fasterxml.jackson.databind.JsonNode;
import io.overseer.support.SimulatorApi;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** What the simulator's ledger holds about one test's orders. */
final class LedgerCounts {

    /** The summary of an order whose every operation was applied once. */
    static final String EACH_ONCE = "every operation once";

    private LedgerCounts() {
    }

    /**
     * Orders summed up by what the ledger holds for them: {@value #EACH_ONCE} when each of
     * {@code operations} was applied once and nothing else was, otherwise the operations and their counts.
     */
    static Map<String, Long> effectsPerOrder(SimulatorApi simulator, List<String> orderIds, List<String> operations) {
        Set<String> ours = new HashSet<>(orderIds);
        Map<String, Map<String, Integer>> byOrder = new HashMap<>();
        for (JsonNode effect : simulator.effects()) {
            String orderId = effect.get("orderId").asText();
            if (ours.contains(orderId)) {
                byOrder.computeIfAbsent(orderId, id -> new TreeMap<>())
                        .merge(effect.get("operation").asText(), 1, Integer::sum);
            }
        }
        Map<String, Long> summary = new TreeMap<>();
        for (String orderId : orderIds) {
            Map<String, Integer> applied = byOrder.getOrDefault(orderId, Map.of());
            boolean once = applied.keySet().equals(Set.copyOf(operations)) && applied.values().stream().allMatch(n -> n == 1);
            summary.merge(once ? EACH_ONCE : applied.toString(), 1L, Long::sum);
        }
        return summary;
    }
}
