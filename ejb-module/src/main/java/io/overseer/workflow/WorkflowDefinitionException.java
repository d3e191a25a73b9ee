package io.overseer.workflow;

/** A workflow definition that cannot be used; the message names the workflow, step and field. */
public class WorkflowDefinitionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public WorkflowDefinitionException(String message) {
        super(message);
    }
}
