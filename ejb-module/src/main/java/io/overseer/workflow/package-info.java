/**
 * The workflows a task runs: each definition's steps, their operations and deadlines, parallel groups,
 * external events and compensations, read from configuration and kept by version. The Scheduler follows
 * them and the Supervisor's recovery policy consults them; they hold no state of any order.
 *
 * <p>Above only the shared infrastructure (PackageMapTest checks it): May import: {@code platform}.
 */
package io.overseer.workflow;
