package io.overseer.notification;

import io.overseer.platform.TraceParent;
import io.overseer.messaging.Destinations;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.Json;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import io.overseer.messaging.Courier;
import io.overseer.messaging.Parcel;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Raises operator alerts: logged at WARNING and published on the alerts topic once the caller's
 * transaction commits (see {@link Courier}), so an alert is never published for an Error that rolled back.
 */
@ApplicationScoped
public class AlertPublisher {

    private static final Logger LOG = Logger.getLogger(AlertPublisher.class.getName());

    @Inject
    Courier courier;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;

    public void raise(String orderId, String kind, String reason) {
        raise(orderId, null, kind, reason);
    }

    /** An alert about an order whose trace is {@code traceparent} (null if not traced): the alert names the trace. */
    public void raise(String orderId, String traceparent, String kind, String reason) {
        String traceId = traceparent == null ? null : TraceParent.traceId(traceparent);
        Alert alert = new Alert(orderId, kind, reason, instance.id(), clocks.now(), "-".equals(traceId) ? null : traceId);
        // The trace last: the line's start ("ALERT kind for order id:") is what log readers match (the chaos runner).
        LOG.log(Level.WARNING, "ALERT {0} for order {1}: {2} (trace {3})",
                new Object[] {kind, orderId, reason, alert.traceId() == null ? "-" : alert.traceId()});
        courier.send(Parcel.single(Destinations.ALERTS, true, Json.write(alert),
                Map.of(Destinations.ORDER_ID, orderId == null ? "" : orderId, "kind", kind), null, null));
    }
}
