package io.overseer.agent;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Agent tuning, from MicroProfile Config. */
@ApplicationScoped
public class AgentSettings {

    /** Base URL of the remote service; operations are POSTed to {@code <url>/operations/<name>}. */
    @Inject
    @ConfigProperty(name = "overseer.remote-service.url", defaultValue = "http://127.0.0.1:8090")
    URI remoteServiceUrl;

    @Inject
    @ConfigProperty(name = "overseer.agent.backoff-initial", defaultValue = "PT0.2S")
    Duration backoffInitial;

    @Inject
    @ConfigProperty(name = "overseer.agent.backoff-cap", defaultValue = "PT5S")
    Duration backoffCap;

    public URI operationUri(String operation) {
        String base = remoteServiceUrl.toString();
        return URI.create((base.endsWith("/") ? base : base + "/") + "operations/" + operation);
    }

    public Backoff backoff() {
        return new Backoff(backoffInitial, backoffCap);
    }
}
