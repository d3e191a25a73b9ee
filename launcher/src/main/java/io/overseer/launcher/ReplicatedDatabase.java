package io.overseer.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The replicated PostgreSQL of {@code --db-ha}, implemented in the lab ({@code io.overseer.launcher.lab.PostgresHa}):
 * here only what the rest of the launcher must know of it without loading the lab — the ports it takes, its
 * directory, the URL that names every host — so that a stack without {@code --db-ha} never does.
 */
public non-sealed interface ReplicatedDatabase extends DatabaseNode {

    /** From --db-port up: PostgreSQL, Patroni's REST API and etcd (see PostgresHa). */
    int PORTS = 10;
    /** Database hosts. */
    int NODES = 2;
    /** Its directory under the data directory. */
    String DIR = "postgres-ha";

    /**
     * What bounds a failover for the driver: which host takes writes, re-checked every 2 s; 2 s to connect
     * and 5 s to log in to an unreachable host (a connection on one network takes milliseconds; every
     * consumer that tries an unreachable database holds its delivery that long, until the instance knows the
     * database is away and hands deliveries back); and 10 s without a byte on an open connection, after which it is
     * given up — a primary cut off (not dead) answers nothing and refuses nothing, and without this a
     * statement on it waits for TCP to give up, minutes later. Longer than any statement the application
     * runs on a healthy database; the pool's statement timeout (60 s) stays the bound on a slow one.
     */
    String URL_PARAMETERS = "targetServerType=primary&hostRecheckSeconds=2&connectTimeout=2"
            + "&loginTimeout=5&socketTimeout=10&tcpKeepAlive=true";

    /**
     * Every host in the URL, the driver taking the one that accepts writes ({@code targetServerType=primary}),
     * checking again every 2 s which is which; a dead host refuses at once, an unreachable one costs at most
     * {@code connectTimeout}. The application's pool re-validates its connections after a failure.
     */
    static String jdbcUrl(List<String> hostPorts, String database) {
        return "jdbc:postgresql://" + String.join(",", hostPorts) + "/" + database + "?" + URL_PARAMETERS;
    }

    /** The URL of {@code ./run --db-ha} with the default placement (every host on loopback). */
    static String loopbackJdbcUrl(int basePort, String database) {
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            hosts.add("127.0.0.1:" + (basePort + i));
        }
        return jdbcUrl(hosts, database);
    }

    /** Every database host's directory under the cluster's {@code dir}: what its processes' command lines name. */
    static List<String> nodeDirs(Path dir) {
        List<String> dirs = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            dirs.add(dir.toAbsolutePath().normalize().resolve("pg" + (i + 1)).toString());
        }
        return dirs;
    }
}
