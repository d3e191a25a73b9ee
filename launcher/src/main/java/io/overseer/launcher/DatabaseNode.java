package io.overseer.launcher;

import io.overseer.launcher.lab.PostgresHa;
import java.nio.file.Path;
import java.util.List;

/**
 * The stack's database, chosen once from the options ({@link #of}): the embedded PostgreSQL
 * ({@link PostgresNode}), the replicated one of {@code --db-ha} ({@link ReplicatedDatabase}, the lab's
 * {@link PostgresHa}), or an external database that this launcher neither starts nor stops
 * ({@link ExternalDatabase}). The stack starts, stops, watches and prints it through this type alone.
 */
public sealed interface DatabaseNode extends Node permits PostgresNode, ReplicatedDatabase, ExternalDatabase {

    /** The URL the application servers use (credentials separate, from the options). */
    String jdbcUrl();

    /** Restarts what dies, as a machine's service manager would, once the stack is up; most need nobody. */
    default void watch() {
    }

    /** Its lines of the banner ({@link Summary}). */
    List<SummaryRow> summaryRows();

    /** A sentence for the banner's end about what happens when it dies, or "" when nothing is said. */
    default String restartNote() {
        return "";
    }

    /**
     * The only place the database's mode is decided. The replicated database is the lab's: only this branch,
     * taken for {@code --db-ha}, loads it.
     */
    static DatabaseNode of(LauncherOptions options, StackLayout layout, Hosts hosts) {
        if (!options.embeddedDb()) {
            return new ExternalDatabase(options.dbUrl());
        }
        Path logs = options.dataDir().resolve("logs");
        if (options.dbHa()) {
            return new PostgresHa(layout, options.dataDir().resolve(ReplicatedDatabase.DIR), options.dbPort(), logs,
                    PostgresHa.Placement.on(hosts));
        }
        return new PostgresNode(options.dataDir().resolve("postgres"), options.dbPort(), logs.resolve("postgres.log"));
    }
}
