/**
 * Local orchestration for {@code ./run}, the benchmarks and the system tests: starts PostgreSQL, the
 * Artemis pair, the remote-service simulator and the application servers as processes on this machine,
 * and stops them. Never deployed and no part of the pattern. It imports nothing of the application; the
 * names it must share with it (queue and user names) are repeated with a comment naming their home.
 *
 * <p>The database-HA and network-namespace lab is a package of its own, {@code io.overseer.launcher.lab}, which
 * only the options that need it load.
 */
package io.overseer.launcher;
