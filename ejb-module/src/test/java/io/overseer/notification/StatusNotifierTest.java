package io.overseer.notification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.overseer.statestore.Actor;
import io.overseer.statestore.HistoryEntry;
import io.overseer.statestore.OrderState;
import io.overseer.statestore.OrderTransitions;
import jakarta.persistence.EntityManager;
import java.lang.reflect.Proxy;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An order marked for notifications whose reply-to is not there: nothing to send, and its transition stands. */
class StatusNotifierTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 23, 12, 0, 0, 0, ZoneOffset.UTC);

    private final List<String> calls = new ArrayList<>();

    @Test
    void aMissingReplyAddressMeansNoNotificationIsRequested() {
        StatusNotifier notifier = new StatusNotifier();
        notifier.em = entityManagerWithoutReplyAddresses();
        // notifier.courier stays null: any send would fail the test (and the transition, in production).
        OrderState state = OrderState.pending("o-1", "order", List.of("reserve"), T0, Actor.of(Actor.Kind.submission, "n"));
        state.notifySubmitter();
        List<HistoryEntry> received = state.drainHistory();

        notifier.onTransitions(new OrderTransitions("o-1", state.processState(), true, received, null));

        assertEquals(List.of("find ReplyAddress o-1"), calls, "looked up once, nothing written to the outbox");
        assertFalse(received.isEmpty());
    }

    /** Finds nothing; any other use of the entity manager (an outbox row) is recorded and refused. */
    private EntityManager entityManagerWithoutReplyAddresses() {
        return (EntityManager) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {EntityManager.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("find") && args.length == 2) {
                        calls.add("find " + ((Class<?>) args[0]).getSimpleName() + " " + args[1]);
                        return null;
                    }
                    calls.add(method.getName());
                    throw new AssertionError("unexpected " + method.getName());
                });
    }
}
