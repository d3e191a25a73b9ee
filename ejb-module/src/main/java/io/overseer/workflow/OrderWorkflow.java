package io.overseer.workflow;

import java.util.List;

/**
 * The order workflow: the ordered steps an order runs through, each the name of a remote operation
 * that an agent performs. One step today, as in the pattern's example.
 */
public final class OrderWorkflow {

    public static final String NAME = "order";
    public static final List<String> STEPS = List.of("charge-payment");

    private OrderWorkflow() {
    }
}
