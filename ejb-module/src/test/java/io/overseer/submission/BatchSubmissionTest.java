package io.overseer.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyMap;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.overseer.messaging.BrokerQueues;
import io.overseer.messaging.DispatchQueue;
import io.overseer.notification.StatusNotifier;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.Tracing;
import io.overseer.scheduler.Scheduler;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.StateStore;
import io.overseer.workflow.StepDefinition;
import io.overseer.workflow.StepDefinition.OnExhausted;
import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowRegistry;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.validation.Validator;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.InjectMocks;
import org.mockito.Mock;
import org.mockito.Spy;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * What a batch decides, with the store, the scheduler, the key store, the order queue and the clock mocked:
 * each order refused alone (validation, workflow, delayed start, key) while the others are handed to the
 * scheduler (stored claimed), each once; the batch's keys claimed in one call; a repeated key answered with its earlier order or
 * refused alone; two orders of one batch with one key; a batch over the bound refused whole.
 */
@ExtendWith(MockitoExtension.class)
class BatchSubmissionTest {

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 29, 8, 0, 0, 0, ZoneOffset.UTC);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", null, Duration.ofSeconds(30), 2, null, null, OnExhausted.ERROR)));
    private static final BatchSource HTTP = BatchSource.http("alice");

    @Mock
    StateStore store;
    @Mock
    Scheduler scheduler;
    @Mock
    DispatchQueue dispatchQueue;
    @Mock
    Validator validator;
    @Mock
    Clocks clocks;
    @Mock
    WorkflowRegistry workflows;
    @Mock
    InstanceIdentity instance;
    @Mock
    SubmissionKeys keys;
    @Mock
    StatusNotifier notifier;
    @Mock
    BrokerQueues brokerQueues;
    @Spy
    Tracing tracing = Tracing.off();
    @InjectMocks
    OrderSubmission submission;

    @BeforeEach
    void wiring() {
        submission.maxBatch = 5;
        lenient().when(clocks.now()).thenReturn(NOW);
        lenient().when(instance.id()).thenReturn("node-a");
        lenient().when(workflows.find("order")).thenReturn(Optional.of(ORDER));
        lenient().when(workflows.find("nope")).thenReturn(Optional.empty());
    }

    @Test
    void eachOrderIsCreatedOnceAndTheResultsComeInTheBatchsOrder() throws Exception {
        List<BatchResult> results = submission.submitAll(List.of(order(0, "c-0", null), order(1, "c-1", null),
                order(2, "c-2", null)), HTTP);

        assertEquals(List.of(0, 1, 2), results.stream().map(BatchResult::index).toList());
        assertTrue(results.stream().allMatch(r -> r.accepted() && !r.replayed()), results.toString());
        assertEquals(List.of("c-0", "c-1", "c-2"), createdCustomers(3));
        assertEquals(results.stream().map(BatchResult::orderId).toList(), admittedIds(3));
        verifyNoInteractions(keys, dispatchQueue);
    }

    @Test
    void aBadOrderIsRefusedAloneWithItsReasonAndTheOthersAreStored() throws Exception {
        OrderRequest invalid = request("c-invalid", null, null);
        violates(invalid, "items[0].quantity", "must be greater than or equal to 1");

        List<BatchResult> results = submission.submitAll(List.of(order(0, "c-0", null),
                BatchOrder.of(1, invalid, null), BatchOrder.of(2, request("c-2", "nope", null), null),
                BatchOrder.of(3, request("c-3", null, "tomorrow"), null), order(4, "c-4", null)), HTTP);

        assertTrue(results.get(0).accepted() && results.get(4).accepted(), results.toString());
        BatchResult.Refusal violation = results.get(1).refusal();
        assertEquals(BatchResult.Refusal.Kind.INVALID, violation.kind());
        assertEquals(List.of(new BatchResult.Refusal.Field("items[0].quantity", "must be greater than or equal to 1")),
                violation.fields());
        assertEquals("unknown workflow 'nope'", results.get(2).refusal().reason());
        assertTrue(results.get(3).refusal().reason().startsWith("notBefore must be"), results.get(3).toString());
        assertEquals(List.of("c-0", "c-4"), createdCustomers(2));
    }

    @SuppressWarnings("unchecked")
    @Test
    void theBatchsKeysAreClaimedInOneCallAndAKeyTakenBeforeReplaysOrRefusesItsOrderAlone() throws Exception {
        BatchOrder same = order(0, "c-same", "k-same");
        BatchOrder other = order(1, "c-other", "k-other");
        BatchOrder fresh = order(2, "c-fresh", "k-fresh");
        when(keys.claimAll(eq("http:alice"), anyMap(), eq(NOW))).thenReturn(Map.of(
                "k-same", new SubmissionKeys.Taken("earlier-same", SubmissionKey.fingerprint(same.request())),
                "k-other", new SubmissionKeys.Taken("earlier-other", "0".repeat(64))));

        List<BatchResult> results = submission.submitAll(List.of(same, other, fresh), HTTP);

        ArgumentCaptor<Map<String, SubmissionKeys.Taken>> wanted = ArgumentCaptor.forClass(Map.class);
        verify(keys).claimAll(eq("http:alice"), wanted.capture(), eq(NOW));
        assertEquals(Set.of("k-same", "k-other", "k-fresh"), wanted.getValue().keySet(), "every key, in one call");
        assertEquals(new BatchResult(0, "earlier-same", true, null), results.get(0));
        assertEquals(BatchResult.Refusal.Kind.KEY_REUSED, results.get(1).refusal().kind());
        assertEquals(wanted.getValue().get("k-fresh").orderId(), results.get(2).orderId(), "created under the id claimed");
        assertFalse(results.get(2).replayed());
        assertEquals(List.of("c-fresh"), createdCustomers(1));
        verify(dispatchQueue, never()).announce("earlier-same"); // over HTTP a replay is not announced again
    }

    @Test
    void twoOrdersOfOneBatchWithOneKeyAreOneOrderOrTheSecondIsRefused() throws Exception {
        when(keys.claimAll(eq("http:alice"), anyMap(), eq(NOW))).thenReturn(Map.of());

        List<BatchResult> results = submission.submitAll(List.of(order(0, "c-twice", "k-1"),
                order(1, "c-twice", "k-1"), order(2, "c-else", "k-1")), HTTP);

        assertFalse(results.get(0).replayed());
        assertEquals(new BatchResult(1, results.get(0).orderId(), true, null), results.get(1));
        assertEquals(BatchResult.Refusal.Kind.KEY_REUSED, results.get(2).refusal().kind());
        assertEquals(List.of("c-twice"), createdCustomers(1));
    }

    @Test
    void overTheQueueAReplayedOrderIsAnnouncedAgain() throws Exception {
        BatchOrder again = order(0, "c-again", "k-again");
        when(keys.claimAll(eq("jms:legacy"), anyMap(), eq(NOW))).thenReturn(Map.of("k-again",
                new SubmissionKeys.Taken("earlier", SubmissionKey.fingerprint(again.request()))));

        List<BatchResult> results = submission.submitAll(List.of(again), BatchSource.jms("legacy", null));

        assertTrue(results.get(0).replayed());
        verify(dispatchQueue).announce("earlier");
        verifyNoInteractions(scheduler, store);
    }

    @Test
    void aBatchOverTheBoundIsRefusedWholeAndNothingIsWritten() {
        List<BatchOrder> six = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            six.add(order(i, "c-" + i, "k-" + i));
        }

        BatchTooLargeException refused = assertThrows(BatchTooLargeException.class, () -> submission.submitAll(six, HTTP));

        assertEquals(5, refused.max());
        verifyNoInteractions(keys, store, scheduler, dispatchQueue, validator);
    }

    @Test
    void anEmptyKeyIsRefusedAloneBeforeItIsClaimed() throws Exception {
        List<BatchResult> results = submission.submitAll(List.of(order(0, "c-0", " "), order(1, "c-1", null)), HTTP);

        assertEquals("idempotencyKey must be 1-255 characters", results.get(0).refusal().reason());
        assertNull(results.get(1).refusal());
        verifyNoInteractions(keys);
    }

    private static BatchOrder order(int index, String customer, String key) {
        return BatchOrder.of(index, request(customer, null, null), key);
    }

    private static OrderRequest request(String customer, String workflow, String notBefore) {
        return new OrderRequest(customer, List.of(new OrderRequest.Item("sku-1", 1)), workflow, null, notBefore, null);
    }

    @SuppressWarnings("unchecked")
    private void violates(OrderRequest request, String field, String message) {
        ConstraintViolation<OrderRequest> violation = mock(ConstraintViolation.class);
        Path path = mock(Path.class);
        when(path.toString()).thenReturn(field);
        when(violation.getPropertyPath()).thenReturn(path);
        when(violation.getMessage()).thenReturn(message);
        lenient().when(validator.validate(request)).thenReturn(Set.of(violation));
    }

    /** The customers of the orders handed to the scheduler (none is delayed here), in the order handed. */
    private List<String> createdCustomers(int count) {
        ArgumentCaptor<CustomerOrder> orders = ArgumentCaptor.forClass(CustomerOrder.class);
        verify(scheduler, times(count)).admit(orders.capture(), any(OrderState.class));
        return orders.getAllValues().stream().map(CustomerOrder::customerId).toList();
    }

    private List<String> admittedIds(int count) {
        ArgumentCaptor<OrderState> states = ArgumentCaptor.forClass(OrderState.class);
        verify(scheduler, times(count)).admit(any(CustomerOrder.class), states.capture());
        return states.getAllValues().stream().map(OrderState::orderId).toList();
    }
}
