/**
 * Infrastructure that every actor of the Scheduler Agent Supervisor pattern uses and none owns: the
 * injected time ({@link io.overseer.platform.Clocks}, the database's clock), the datasource and schema
 * migration, the lease that lets one instance run a cluster-wide job ({@link io.overseer.platform.JobLease}),
 * the instance's identity, heartbeats and liveness, the shutdown gate, the one JSON-B instance, the meter
 * registry, and telling an outage from a failure of the work.
 *
 * <p>The bottom of the package map (PackageMapTest checks it): May import nothing of the application.
 */
package io.overseer.platform;
