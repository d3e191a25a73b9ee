package io.overseer.launcher;

import java.nio.file.Path;

/**
 * A launcher that was kill -9'd leaves its children running. Each node would stop its own leftover on start,
 * but in start order; here they go in shutdown order, Payara before the database it uses — those of every
 * mode, as the earlier launcher may have run with other options than this one.
 */
final class Leftovers {

    private Leftovers() {
    }

    static void stop(Path dataDir) {
        // Every instance directory of every runtime: the earlier launcher may have run more instances, or another one.
        for (AppRuntime runtime : AppRuntime.values()) {
            StaleProcesses.stopUsing(AppInstance.allWorkDirs(dataDir, runtime).stream().map(Path::toString).toList(),
                    "TERM", runtime.label());
        }
        StaleProcesses.stopUsing(dataDir.resolve("simulator").toString(), "TERM", "simulator");
        StaleProcesses.stopUsing(dataDir.resolve("zipkin").toString(), "TERM", "Zipkin");
        StaleProcesses.stopUsing(dataDir.resolve("broker-backup").toString(), "TERM", "Artemis backup");
        StaleProcesses.stopUsing(dataDir.resolve("broker").toString(), "TERM", "Artemis");
        StaleProcesses.stopUsing(dataDir.resolve("postgres").toString(), "INT", "PostgreSQL");
        // Patroni before the etcd it keeps its lock in; a postmaster it had detached names its node's directory.
        Path replicated = dataDir.resolve(ReplicatedDatabase.DIR);
        StaleProcesses.stopUsing(ReplicatedDatabase.nodeDirs(replicated), "TERM", "Patroni or PostgreSQL");
        StaleProcesses.stopUsing(replicated.toString(), "TERM", "etcd");
    }
}
