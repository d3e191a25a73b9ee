package io.overseer.submission;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import io.overseer.platform.TraceParent;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.api.trace.StatusCode;
import org.mockito.Spy;
import io.overseer.platform.Tracing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.overseer.messaging.BrokerQueues;
import io.overseer.notification.ReplyTo;
import io.overseer.notification.StatusNotifier;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.messaging.DispatchQueue;
import io.overseer.scheduler.Scheduler;
import io.overseer.statestore.CustomerOrder;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.ProcessState;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.InjectMocks;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * What submission decides, with the store, the scheduler, the key store, the order queue, the broker and
 * the clock mocked: a new order is handed to the scheduler, which stores it claimed, and is not announced
 * (a delayed one is stored Pending, not announced either: the due-order poller finds it); a repeated key answers with the first order and writes nothing, or is refused if the request
 * differs; everything that refuses an order (workflow, reply-to, JSON, validation) does so before the key
 * is taken; a reply-to that may be named subscribes the order to its notifications.
 */
@ExtendWith(MockitoExtension.class)
class OrderSubmissionTest {

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 0, ZoneOffset.UTC);
    private static final WorkflowDefinition ORDER = new WorkflowDefinition("order", List.of(
            new StepDefinition("reserve", "reserve-inventory", null, Duration.ofSeconds(30), 2, null, null, OnExhausted.ERROR)));
    private static final OrderRequest REQUEST = new OrderRequest("alice-customer",
            List.of(new OrderRequest.Item("sku-1", 2)), null, null, null, null);
    private static final String JSON = "{\"customerId\":\"alice-customer\",\"items\":[{\"sku\":\"sku-1\",\"quantity\":2}]}";

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
        lenient().when(clocks.now()).thenReturn(NOW);
        lenient().when(instance.id()).thenReturn("node-a");
        lenient().when(workflows.find("order")).thenReturn(Optional.of(ORDER));
        lenient().when(workflows.find("nope")).thenReturn(Optional.empty());
    }

    @Test
    void aNewOrderIsHandedToTheSchedulerPendingWithItsLinesAndNotAnnounced() throws Exception {
        Submitted submitted = submission.submit(REQUEST, null, "alice");

        assertFalse(submitted.replayed());
        OrderState state = admitted(submitted.orderId());
        assertEquals(ProcessState.Pending, state.processState(), "the scheduler claims it (mocked here)");
        assertEquals("order", state.workflow());
        assertFalse(state.submitterNotified());
        assertEquals(List.of("sku-1 x2"), order(submitted.orderId()).lines().stream().map(l -> l.sku() + " x" + l.quantity()).toList());
        verify(store, never()).create(any(), any());
        verifyNoInteractions(keys, notifier, dispatchQueue);
    }

    @Test
    void traced_theSubmissionSpanIsStoredWithTheOrderAndSaysCreatedReplayedOrRefused() throws Exception {
        InMemorySpanExporter exported = InMemorySpanExporter.create();
        try (SdkTracerProvider provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exported)).build()) {
            submission.tracing = new Tracing(provider.get("test"));

            Submitted submitted = submission.submit(REQUEST, null, "alice");
            SpanData created = exported.getFinishedSpanItems().get(0);
            assertEquals("submit order", created.getName());
            assertEquals("created", created.getAttributes().get(Tracing.OUTCOME));
            assertEquals(submitted.orderId(), created.getAttributes().get(Tracing.ORDER_ID));
            assertEquals(TraceParent.of(created.getSpanContext()), admitted(submitted.orderId()).traceParent(),
                    "the order keeps its submission span's context: every later span is its child");

            SubmissionKey key = SubmissionKey.of("http:alice", "k-1", REQUEST);
            when(keys.claim(eq(key), anyString(), eq(NOW))).thenReturn(Optional.of(new SubmissionKeys.Taken("first", key.fingerprint())));
            submission.submit(REQUEST, key, "alice");
            SpanData replayed = exported.getFinishedSpanItems().get(1);
            assertEquals("replayed", replayed.getAttributes().get(Tracing.OUTCOME));
            assertEquals("first", replayed.getAttributes().get(Tracing.ORDER_ID));

            OrderRequest unknown = new OrderRequest("alice-customer", REQUEST.items(), "nope", null, null, null);
            assertThrows(InvalidOrderException.class, () -> submission.submit(unknown, null, "alice"));
            SpanData refused = exported.getFinishedSpanItems().get(2);
            assertEquals("refused", refused.getAttributes().get(Tracing.OUTCOME));
            assertEquals(StatusCode.ERROR, refused.getStatus().getStatusCode());
        }
    }

    @Test
    void aDelayedOrderIsWrittenButNotAnnounced() throws Exception {
        OrderRequest later = new OrderRequest("alice-customer", REQUEST.items(), null, null, NOW.plusHours(1).toString(), null);

        Submitted submitted = submission.submit(later, null, "alice");

        assertEquals(NOW.plusHours(1).toInstant(), created(submitted.orderId()).notBefore().toInstant());
        verifyNoInteractions(dispatchQueue, scheduler);
    }

    @Test
    void aKeySeenBeforeWithTheSameRequestAnswersWithTheFirstOrderAndWritesNothing() throws Exception {
        SubmissionKey key = SubmissionKey.of("http:alice", "k-1", REQUEST);
        when(keys.claim(eq(key), anyString(), eq(NOW))).thenReturn(Optional.of(new SubmissionKeys.Taken("first", key.fingerprint())));

        assertEquals(new Submitted("first", true), submission.submit(REQUEST, key, "alice"));

        verify(store, never()).create(any(), any());
        verifyNoInteractions(dispatchQueue, scheduler);
    }

    @Test
    void aKeySeenBeforeWithAnotherRequestIsRefused() throws Exception {
        SubmissionKey key = SubmissionKey.of("http:alice", "k-1", REQUEST);
        when(keys.claim(eq(key), anyString(), eq(NOW))).thenReturn(Optional.of(new SubmissionKeys.Taken("first", "0".repeat(64))));

        assertThrows(SubmissionKeyConflictException.class, () -> submission.submit(REQUEST, key, "alice"));

        verify(store, never()).create(any(), any());
        verifyNoInteractions(dispatchQueue, scheduler);
    }

    @Test
    void aNewKeyIsTakenForTheOrderItCreates() throws Exception {
        SubmissionKey key = SubmissionKey.of("http:alice", "k-2", REQUEST);
        when(keys.claim(eq(key), anyString(), eq(NOW))).thenReturn(Optional.empty());

        Submitted submitted = submission.submit(REQUEST, key, "alice");

        verify(keys).claim(key, submitted.orderId(), NOW);
        admitted(submitted.orderId());
    }

    @Test
    void anUnknownWorkflowOrAnotherUsersReplyToIsRefusedBeforeTheKeyIsTaken() {
        SubmissionKey key = SubmissionKey.of("http:alice", "k-3", REQUEST);
        OrderRequest unknown = new OrderRequest("c", REQUEST.items(), "nope", null, null, null);
        OrderRequest othersQueue = new OrderRequest("c", REQUEST.items(), null, "overseer.reply.bob.status", null, null);

        assertThrows(InvalidOrderException.class, () -> submission.submit(unknown, key, "alice"));
        assertThrows(InvalidOrderException.class, () -> submission.submit(othersQueue, key, "alice"));

        verifyNoInteractions(keys, store, scheduler, dispatchQueue, notifier);
    }

    @Test
    void aReplyToOfTheSubmittersOwnSubscribesTheOrderWithItsIdAsCorrelation() throws Exception {
        OrderRequest notified = new OrderRequest("c", REQUEST.items(), null, "overseer.reply.alice.status", null, null);

        Submitted submitted = submission.submit(notified, null, "alice");

        verify(notifier).subscribe(submitted.orderId(), new ReplyTo("overseer.reply.alice.status", ReplyTo.Kind.QUEUE),
                submitted.orderId());
        assertTrue(admitted(submitted.orderId()).submitterNotified());
    }

    @Test
    void aQueuedOrderIsHandedToTheSchedulerAndNotifiesUnderTheMessagesCorrelationId() throws Exception {
        ReplyTo temporary = new ReplyTo("tmpq-1", ReplyTo.Kind.TEMPORARY_QUEUE);
        when(brokerQueues.queueOwner("tmpq-1")).thenReturn(Optional.of("legacy"));

        String orderId = submission.accept(new OrderMessage(JSON, temporary, "corr-7", null, "legacy"));

        verify(notifier).subscribe(orderId, temporary, "corr-7");
        assertEquals(List.of("sku-1 x2"), order(orderId).lines().stream().map(l -> l.sku() + " x" + l.quantity()).toList());
        admitted(orderId); // as over HTTP: claimed in the transaction that consumes the message
        verifyNoInteractions(keys, dispatchQueue);
    }

    @Test
    void aQueuedOrdersAttributesAreStoredWithIt() throws Exception {
        String json = "{\"customerId\":\"alice-customer\",\"items\":[{\"sku\":\"sku-1\",\"quantity\":2}],"
                + "\"attributes\":{\"region\":\"eu-west\",\"batch\":\"b-17\"}}";

        String orderId = submission.accept(new OrderMessage(json, null, null, null, "legacy"));

        assertEquals(java.util.Map.of("batch", "b-17", "region", "eu-west"), order(orderId).attributes());
    }

    @Test
    void anIdempotencyKeysFingerprintCoversTheAttributesButNotTheirOrder() {
        OrderRequest plain = REQUEST;
        OrderRequest tagged = new OrderRequest(REQUEST.customerId(), REQUEST.items(), null, null, null,
                java.util.Map.of("region", "eu", "channel", "web"));
        java.util.Map<String, String> reversed = new java.util.LinkedHashMap<>();
        reversed.put("region", "eu");
        reversed.put("channel", "web");
        OrderRequest sameTags = new OrderRequest(REQUEST.customerId(), REQUEST.items(), null, null, null, reversed);
        OrderRequest empty = new OrderRequest(REQUEST.customerId(), REQUEST.items(), null, null, null, java.util.Map.of());

        assertNotEquals(SubmissionKey.fingerprint(plain), SubmissionKey.fingerprint(tagged));
        assertEquals(SubmissionKey.fingerprint(tagged), SubmissionKey.fingerprint(sameTags));
        assertEquals(SubmissionKey.fingerprint(plain), SubmissionKey.fingerprint(empty), "no attributes, the old fingerprint");
    }

    @Test
    void aDelayedQueuedOrderIsStoredButNotAnnounced() throws Exception {
        String later = "{\"customerId\":\"alice-customer\",\"items\":[{\"sku\":\"sku-1\",\"quantity\":2}],"
                + "\"notBefore\":\"" + NOW.plusHours(1) + "\"}";

        String orderId = submission.accept(new OrderMessage(later, null, null, null, "legacy"));

        assertEquals(NOW.plusHours(1).toInstant(), created(orderId).notBefore().toInstant());
        verifyNoInteractions(dispatchQueue, scheduler);
    }

    /** A redelivery after a crash may find its order stored but its hint lost with the process: announced again. */
    @Test
    void aQueuedOrderWhoseKeyMadeAnOrderBeforeAnnouncesThatOrderAndWritesNothing() throws Exception {
        SubmissionKey key = SubmissionKey.of("jms:legacy", "k-1", REQUEST);
        when(keys.claim(eq(key), anyString(), eq(NOW))).thenReturn(Optional.of(new SubmissionKeys.Taken("first", key.fingerprint())));

        assertEquals("first", submission.accept(new OrderMessage(JSON, null, null, "k-1", "legacy")));

        verify(store, never()).create(any(), any());
        verifyNoInteractions(scheduler);
        verify(dispatchQueue).announce("first");
    }

    @Test
    void aTemporaryQueueOfAnotherUserIsRefusedAndOneThatIsGoneTakesNoNotifications() throws Exception {
        when(brokerQueues.queueOwner("tmpq-1")).thenReturn(Optional.of("someone-else"));
        when(brokerQueues.queueOwner("tmpq-2")).thenReturn(Optional.empty());

        assertThrows(InvalidOrderException.class, () -> submission.accept(
                new OrderMessage(JSON, new ReplyTo("tmpq-1", ReplyTo.Kind.TEMPORARY_QUEUE), null, null, "legacy")));
        String orderId = submission.accept(new OrderMessage(JSON, new ReplyTo("tmpq-2", ReplyTo.Kind.TEMPORARY_QUEUE),
                null, null, "legacy"));

        assertFalse(admitted(orderId).submitterNotified());
        verifyNoInteractions(notifier);
    }

    @Test
    void aMalformedEmptyOrInvalidQueuedOrderIsRefusedBeforeAnythingIsWritten() {
        @SuppressWarnings("unchecked")
        ConstraintViolation<OrderRequest> violation = mock(ConstraintViolation.class);
        Path path = mock(Path.class);
        when(path.toString()).thenReturn("items");
        when(violation.getPropertyPath()).thenReturn(path);
        when(violation.getMessage()).thenReturn("must not be null");
        when(validator.validate(any(OrderRequest.class))).thenReturn(Set.of(violation));

        assertThrows(InvalidOrderException.class, () -> submission.accept(new OrderMessage("{not json", null, null, "k", "legacy")));
        assertThrows(InvalidOrderException.class, () -> submission.accept(new OrderMessage("null", null, null, "k", "legacy")));
        InvalidOrderException invalid = assertThrows(InvalidOrderException.class,
                () -> submission.accept(new OrderMessage("{\"customerId\":\"c\"}", null, null, "k", "legacy")));
        assertEquals("invalid order: items must not be null", invalid.getMessage());

        verifyNoInteractions(keys, store, scheduler, dispatchQueue);
    }

    @Test
    void aQueuedOrderWhoseKeyTheSenderUsedForAnotherOrderIsRefused() throws Exception {
        when(keys.claim(any(), anyString(), eq(NOW))).thenReturn(Optional.of(new SubmissionKeys.Taken("first", "0".repeat(64))));

        assertThrows(InvalidOrderException.class, () -> submission.accept(new OrderMessage(JSON, null, null, "k-1", "legacy")));

        ArgumentCaptor<SubmissionKey> key = ArgumentCaptor.forClass(SubmissionKey.class);
        verify(keys).claim(key.capture(), anyString(), eq(NOW));
        assertEquals("jms:legacy", key.getValue().scope(), "scoped by the broker-validated sender");
        verify(store, never()).create(any(), any());
        verifyNoInteractions(scheduler);
    }

    private OrderState created(String orderId) {
        ArgumentCaptor<OrderState> state = ArgumentCaptor.forClass(OrderState.class);
        verify(store).create(any(CustomerOrder.class), state.capture());
        assertEquals(orderId, state.getValue().orderId());
        return state.getValue();
    }

    /** The record of an order that may start now, as submission handed it to the scheduler. */
    private OrderState admitted(String orderId) {
        ArgumentCaptor<OrderState> state = ArgumentCaptor.forClass(OrderState.class);
        verify(scheduler).admit(any(CustomerOrder.class), state.capture());
        assertEquals(orderId, state.getValue().orderId());
        return state.getValue();
    }

    private CustomerOrder order(String orderId) {
        ArgumentCaptor<CustomerOrder> order = ArgumentCaptor.forClass(CustomerOrder.class);
        verify(scheduler).admit(order.capture(), any());
        assertEquals(orderId, order.getValue().orderId());
        return order.getValue();
    }
}
