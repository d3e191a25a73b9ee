/**
 * The workflows a task runs: each definition's steps, their operations and deadlines, parallel groups,
 * external events and compensations, read from configuration and kept by version. The Scheduler follows
 * them and the Supervisor's recovery policy consults them; they hold no state of any order, and write
 * none: pinning old orders to a deployed version is the state store's, on {@link
 * io.overseer.workflow.WorkflowDeployed}. It writes only its own table of versions.
 *
 * <p>Above only the shared infrastructure (PackageMapTest checks it): May import: {@code platform}.
 */
package io.overseer.workflow;
