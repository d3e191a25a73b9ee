package io.overseer.notification;

import io.overseer.messaging.Destinations;
import io.overseer.platform.Clocks;
import io.overseer.platform.InstanceIdentity;
import io.overseer.platform.Json;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSConnectionFactory;
import jakarta.jms.JMSContext;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Raises operator alerts: logged at WARNING and published on the alerts topic, inside the caller's
 * transaction, so an alert exists exactly when the Error it reports was committed.
 */
@ApplicationScoped
public class AlertPublisher {

    private static final Logger LOG = Logger.getLogger(AlertPublisher.class.getName());

    @Inject
    @JMSConnectionFactory(Destinations.CONNECTION_FACTORY)
    JMSContext jms;
    @Inject
    InstanceIdentity instance;
    @Inject
    Clocks clocks;

    public void raise(String orderId, String kind, String reason) {
        Alert alert = new Alert(orderId, kind, reason, instance.id(), clocks.now());
        LOG.log(Level.WARNING, "ALERT {0} for order {1}: {2}", new Object[] {kind, orderId, reason});
        jms.createProducer()
                .setProperty(Destinations.ORDER_ID, orderId)
                .setProperty("kind", kind)
                .send(jms.createTopic(Destinations.ALERTS), Json.write(alert));
    }
}
