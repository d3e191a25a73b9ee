package io.overseer.launcher;

import java.util.List;

/** A database of the user's own ({@code --db-url}): nothing of it runs here, so starting and stopping do nothing. */
public record ExternalDatabase(String jdbcUrl) implements DatabaseNode {

    @Override
    public String name() {
        return "external database";
    }

    @Override
    public void start() {
        // not ours to start
    }

    @Override
    public void stop() {
        // not ours to stop
    }

    @Override
    public void kill9() {
        // not ours to kill
    }

    /** Nothing of it runs here. */
    @Override
    public boolean isAlive() {
        return false;
    }

    @Override
    public long pid() {
        return -1;
    }

    @Override
    public List<SummaryRow> summaryRows() {
        return List.of(new SummaryRow("JDBC (external)", jdbcUrl));
    }
}
