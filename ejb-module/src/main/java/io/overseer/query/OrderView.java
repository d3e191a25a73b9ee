package io.overseer.query;

import java.util.Map;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.ProcessState;
import io.overseer.statestore.StepStatus;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * A read-only snapshot of an order and its state records, as the API shows it. Null fields are
 * written as null (not left out): clients read "lockedBy": null as "nobody holds it", and "pausedOn":
 * null as "not waiting for a paused operation", and "notBefore": null as "claimable now, if waiting" (set:
 * a delayed start, a retry's backoff, or a cancelled attempt's wait). "workflowVersion" is the version of
 * the definition the order runs under; null for an order stored before versions were recorded. "attributes": the
 * business attributes it was submitted with, by name ({} if none).
 */
@JsonbNillable
@JsonbPropertyOrder({"orderId", "customerId", "items", "attributes", "workflow", "workflowVersion", "processState", "failureCount", "lockedBy",
        "completeBy", "notBefore", "lastError", "pausedOn", "createdAt", "updatedAt", "steps"})
public record OrderView(
        String orderId,
        String customerId,
        List<Item> items,
        Map<String, String> attributes,
        String workflow,
        String workflowVersion,
        ProcessState processState,
        int failureCount,
        String lockedBy,
        OffsetDateTime completeBy,
        OffsetDateTime notBefore,
        String lastError,
        String pausedOn,
        OffsetDateTime createdAt,
        OffsetDateTime updatedAt,
        List<Step> steps) {

    public record Item(String sku, int quantity) {
    }

    /**
     * One step's record. {@code group}: the parallel group it runs in, null for a step on its own;
     * {@code event}: the external event it waits for, null for a remote call; {@code heartbeatBy}: while an
     * attempt of a step with a heartbeat runs, when it expires unless its agent reports in.
     */
    @JsonbNillable
    @JsonbPropertyOrder({"name", "group", "event", "state", "lockedBy", "completeBy", "heartbeatBy", "failureCount",
            "attempts", "updatedAt"})
    public record Step(String name, String group, String event, StepStatus state, String lockedBy,
                       OffsetDateTime completeBy, OffsetDateTime heartbeatBy, int failureCount, int attempts,
                       OffsetDateTime updatedAt) {
    }

    /** The snapshot, with each step's group and event from {@code definition} (null if it cannot be read). */
    public static OrderView of(CustomerOrder order, OrderState state, io.overseer.workflow.WorkflowDefinition definition) {
        return new OrderView(order.orderId(), order.customerId(),
                order.lines().stream().map(line -> new Item(line.sku(), line.quantity())).toList(), order.attributes(),
                state.workflow(), state.workflowVersion(), state.processState(), state.failureCount(), state.lockedBy(),
                state.completeBy(), state.notBefore(), state.lastError(), state.pausedOn(), state.createdAt(), state.updatedAt(),
                state.steps().stream()
                        .map(step -> new Step(step.name(),
                                definition == null ? null : definition.step(step.name()).group(),
                                definition == null ? null : definition.step(step.name()).event(),
                                step.state(), step.lockedBy(), step.completeBy(), step.heartbeatBy(),
                                step.failureCount() + step.compensationFailures(), step.attempts(), step.updatedAt()))
                        .toList());
    }
}
