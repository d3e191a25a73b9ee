package io.overseer.bench.scale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One line per plan: the node tree as "Limit > LockRows > Sort > Index Scan using x on t (rows=…)",
 * children of a node with several in brackets. Enough to see at a glance whether a query reads an
 * index or the whole table, which is the question at 1M orders.
 */
final class PlanSummary {

    private PlanSummary() {
    }

    static String of(JsonNode plan) {
        StringBuilder sb = new StringBuilder();
        append(plan, sb);
        return sb.toString();
    }

    private static void append(JsonNode node, StringBuilder sb) {
        sb.append(node.path("Node Type").asText());
        if (node.has("Index Name")) {
            sb.append(" using ").append(node.get("Index Name").asText());
        }
        if (node.has("Relation Name")) {
            sb.append(" on ").append(node.get("Relation Name").asText());
        }
        if (node.has("Actual Rows")) {
            sb.append(" (rows=").append(node.get("Actual Rows").asLong());
            long loops = node.path("Actual Loops").asLong(1);
            if (loops != 1) {
                sb.append(" loops=").append(loops);
            }
            if (node.has("Rows Removed by Filter")) {
                sb.append(" filtered=").append(node.get("Rows Removed by Filter").asLong());
            }
            sb.append(')');
        }
        JsonNode children = node.path("Plans");
        if (children.size() == 1) {
            sb.append(" > ");
            append(children.get(0), sb);
        } else if (children.size() > 1) {
            sb.append(" > [");
            for (int i = 0; i < children.size(); i++) {
                if (i > 0) {
                    sb.append("; ");
                }
                append(children.get(i), sb);
            }
            sb.append(']');
        }
    }
}
