package io.overseer.launcher;

import java.util.List;

/** A database of the user's own ({@code --db-url}): nothing of it runs here ({@link ExternalNode}). */
public record ExternalDatabase(String jdbcUrl) implements DatabaseNode, ExternalNode {

    @Override
    public String name() {
        return "external database";
    }

    @Override
    public List<SummaryRow> summaryRows() {
        return List.of(new SummaryRow("JDBC (external)", jdbcUrl));
    }
}
