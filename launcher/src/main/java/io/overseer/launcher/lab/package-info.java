/**
 * The launcher's lab: the replicated PostgreSQL of {@code --db-ha} ({@link io.overseer.launcher.lab.PostgresHa}:
 * two hosts under Patroni, three etcd members, Debian's packages) and the hosts of their own of
 * {@code --hosts namespaces} ({@link io.overseer.launcher.lab.HostNetwork}: network namespaces on a bridge,
 * whose links the chaos runner and the system tests cut and heal). Neither is needed to run Overseer; both
 * exist to prove how it behaves when a database fails over or a network splits.
 *
 * <p>{@code ./run} without {@code --db-ha} or {@code --hosts namespaces} never loads a class of this package:
 * only the branch of {@link io.overseer.launcher.DatabaseNode#of} taken for {@code --db-ha}, and that of
 * {@link io.overseer.launcher.Hosts#of} taken for {@code --hosts namespaces}, instantiate it
 * ({@code LabIsolationTest} holds this). What the rest of the launcher must know of the replicated database
 * without loading it (its ports, directory and URL) is {@link io.overseer.launcher.ReplicatedDatabase}.
 *
 * <p>It may import the launcher's package (nodes, processes, waits, files); the launcher's package imports it
 * only in those two factories and in the accessors of {@link io.overseer.launcher.Stack} that hand its
 * types to the chaos runner and the system tests.
 */
package io.overseer.launcher.lab;
