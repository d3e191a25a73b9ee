package io.overseer.agent;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Agent tuning, from MicroProfile Config. */
@ApplicationScoped
public class AgentSettings {

    @Inject
    @ConfigProperty(name = "overseer.agent.backoff-initial", defaultValue = "PT0.2S")
    Duration backoffInitial;

    @Inject
    @ConfigProperty(name = "overseer.agent.backoff-cap", defaultValue = "PT5S")
    Duration backoffCap;

    /** How long an agent's delivery stays unacknowledged while its attempts run ({@link DeliveryHold}). */
    @Inject
    @ConfigProperty(name = "overseer.agent.delivery-hold", defaultValue = "PT2S")
    Duration deliveryHold;

    public Duration deliveryHold() {
        return deliveryHold;
    }

    public Backoff backoff() {
        return new Backoff(backoffInitial, backoffCap);
    }
}
