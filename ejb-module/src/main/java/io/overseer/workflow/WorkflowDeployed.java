package io.overseer.workflow;

/**
 * Fired (synchronously) for each current definition at deployment, once it is recorded and before the
 * versions unfinished orders use are counted. The state store observes it to pin the orders stored
 * before versions (V12) to it: the write is the state store's, and this package holds no state of any
 * order, so it announces rather than calls.
 */
public record WorkflowDeployed(WorkflowDefinition definition) {
}
