package io.overseer.launcher;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embedded PostgreSQL (zonky: real binaries from Maven Central) on a persistent data directory. zonky runs
 * initdb only when the directory has no postgresql.conf, so a restart keeps the data. The postmaster is
 * started by pg_ctl in its own session, so it is not a descendant of this JVM: we find it via postmaster.pid.
 * Hence not a {@link ProcessNode} (whose process is the launcher's child); its stop and kill use the same
 * {@link ManagedProcess} helpers on the postmaster's handle.
 */
public final class PostgresNode implements DatabaseNode {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresNode.class);

    private final Path dataDir;
    private final int port;
    private final Path logFile;
    private final String appUser;
    private final String appPassword;
    private final String appDatabase;
    private EmbeddedPostgres pg;

    /** Application role/password/database overseer/overseer/overseer. */
    public PostgresNode(Path dataDir, int port, Path logFile) {
        this(dataDir, port, logFile, LauncherOptions.EMBEDDED_DB, LauncherOptions.EMBEDDED_DB,
                LauncherOptions.EMBEDDED_DB);
    }

    public PostgresNode(Path dataDir, int port, Path logFile, String appUser, String appPassword,
                        String appDatabase) {
        this.dataDir = dataDir.toAbsolutePath().normalize();
        this.port = port;
        this.logFile = logFile.toAbsolutePath();
        this.appUser = appUser;
        this.appPassword = appPassword;
        this.appDatabase = appDatabase;
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public synchronized void start() throws IOException, SQLException {
        if (pg != null) {
            return;
        }
        StaleProcesses.stopUsing(dataDir.toString(), "INT", "PostgreSQL");
        Files.createDirectories(dataDir);
        Files.createDirectories(logFile.getParent());
        long t0 = System.nanoTime();
        pg = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)         // persistent: the demo's orders survive ./run restarts
                .setRegisterShutdownHook(false)       // the Stack stops it, after Payara, not in parallel
                .setPort(port)
                .setPGStartupWait(Duration.ofSeconds(60))
                // zonky passes -F (fsync off) for test speed; these -c settings come later and win.
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .setServerConfig("max_connections", "200")
                .setServerConfig("listen_addresses", "127.0.0.1")
                // Statement counts per query (./bench's statements per order; any operator's first question).
                // Loaded at start only; the view appears once a superuser runs CREATE EXTENSION pg_stat_statements.
                .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
        ensureAppDatabase();
        LOG.info("PostgreSQL ready on 127.0.0.1:{} (pid {}) in {} ms, data in {}", port, pid(),
                (System.nanoTime() - t0) / 1_000_000, dataDir);
    }

    /** Role and database for the application, created once; idempotent so restarts just check. */
    private void ensureAppDatabase() throws SQLException {
        try (Connection c = pg.getPostgresDatabase().getConnection()) {
            AppDatabase.ensure(c, appUser, appPassword, appDatabase);
        }
    }

    /** pg_ctl stop -m fast (zonky's close), then anything still running from postmaster.pid. */
    @Override
    public synchronized void stop() {
        if (pg == null) {
            return;
        }
        long pid = pid();
        try {
            pg.close();
        } catch (IOException e) {
            LOG.warn("pg_ctl stop failed: {}", e.toString());
        }
        if (pid > 0) {
            ProcessHandle.of(pid).ifPresent(h -> ManagedProcess.terminate(h, Duration.ofSeconds(15), "PostgreSQL"));
        }
        pg = null;
        LOG.info("PostgreSQL stopped");
    }

    /** SIGKILL to the postmaster and its backends; then release zonky's lock so start() can run again. */
    @Override
    public synchronized void kill9() {
        long pid = pid();
        if (pid > 0) {
            ProcessHandle.of(pid).ifPresent(ManagedProcess::kill9);
        }
        if (pg != null) {
            try {
                pg.close(); // pg_ctl stop fails (logged by zonky), but the data-directory lock is released
            } catch (IOException ignored) {
                // nothing more to release
            }
            pg = null;
        }
    }

    @Override
    public boolean isAlive() {
        long pid = pid();
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The postmaster's pid from the first line of postmaster.pid, or -1. */
    @Override
    public long pid() {
        return postmasterPid(dataDir);
    }

    /**
     * The pid in the first line of {@code dataDir}'s postmaster.pid, or -1: how a postmaster is found that
     * is not this JVM's child (started by pg_ctl in its own session, or detached by Patroni).
     */
    public static long postmasterPid(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        try {
            if (Files.exists(pidFile)) {
                List<String> lines = Files.readAllLines(pidFile);
                if (!lines.isEmpty()) {
                    return Long.parseLong(lines.get(0).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            LOG.debug("cannot read {}: {}", pidFile, e.toString());
        }
        return -1;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** JDBC URL of the application database (credentials separate: {@link #appUser()}, {@link #appPassword()}). */
    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + appDatabase;
    }

    public String appUser() {
        return appUser;
    }

    public String appPassword() {
        return appPassword;
    }

    @Override
    public List<SummaryRow> summaryRows() {
        return List.of(new SummaryRow("JDBC", jdbcUrl() + "   (user " + appUser + " / password " + appPassword + ")"));
    }
}
