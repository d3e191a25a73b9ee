package io.overseer.agent;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the generic HTTP agents and every service's circuit breaker from configuration (MicroProfile
 * Config: system properties, environment, microprofile-config.properties). A bad value fails the
 * deployment with a message naming the key.
 *
 * <pre>
 * overseer.agent.http-services=payments,warehouse           (default: remote-service)
 * overseer.agent.service.payments.url=https://pay.example/api/{operation}
 * overseer.agent.service.payments.operations=charge-payment,refund-payment   (* = every other operation)
 * overseer.agent.service.payments.transient-statuses=408,429,5xx             (default 408,409,425,429,5xx)
 * overseer.agent.service.payments.operation.refund-payment.transient-statuses=409,5xx
 * overseer.agent.service.payments.circuit.failure-ratio=0.5
 * </pre>
 * The default service {@value #DEFAULT_SERVICE} takes every operation at
 * {@code ${overseer.remote-service.url}/operations/{operation}}: the simulator's layout.
 */
public final class HttpServiceConfig {

    public static final String SERVICES = "overseer.agent.http-services";
    public static final String DEFAULT_SERVICE = "remote-service";
    static final String LEGACY_URL = "overseer.remote-service.url";
    private static final String NAME = "[a-z0-9][a-z0-9-]{0,62}";

    private final Function<String, Optional<String>> config;

    /** @param config looks a key up; empty when unset */
    public HttpServiceConfig(Function<String, Optional<String>> config) {
        this.config = config;
    }

    public List<HttpRemoteService> httpServices() {
        List<HttpRemoteService> services = new ArrayList<>();
        for (String name : list(config.apply(SERVICES).orElse(DEFAULT_SERVICE))) {
            if (!name.matches(NAME)) {
                throw new AgentConfigurationException(SERVICES + ": '" + name + "' is not a service name (" + NAME + ")");
            }
            services.add(httpService(name));
        }
        return services;
    }

    private HttpRemoteService httpService(String name) {
        String prefix = key(name, "");
        String url = config.apply(prefix + "url").orElseGet(() -> DEFAULT_SERVICE.equals(name)
                ? trimSlash(config.apply(LEGACY_URL).orElse("http://127.0.0.1:8090")) + "/operations/{operation}"
                : fail(prefix + "url is required"));
        if (!url.startsWith("http://") && !url.startsWith("https://")) {
            throw new AgentConfigurationException(prefix + "url must be an http(s) URL, got '" + url + "'");
        }
        String operations = config.apply(prefix + "operations").orElse("*");
        Set<String> performed = "*".equals(operations.trim()) ? Set.of() : new LinkedHashSet<>(list(operations));
        StatusClassification fallback = classification(prefix + "transient-statuses", StatusClassification.DEFAULT);
        return new HttpRemoteService(name, url, performed, operation -> config
                .apply(prefix + "operation." + operation + ".transient-statuses")
                .map(spec -> classification(prefix + "operation." + operation + ".transient-statuses", spec))
                .orElse(fallback));
    }

    /** The circuit breaker of any service, coded or configured. */
    public CircuitSettings circuit(String service) {
        String prefix = key(service, "circuit.");
        int window = integer(prefix + "window", 10, 1);
        double ratio = config.apply(prefix + "failure-ratio").map(v -> decimal(prefix + "failure-ratio", v)).orElse(0.5);
        return new CircuitSettings(
                Boolean.parseBoolean(config.apply(prefix + "enabled").orElse("true")),
                window,
                integer(prefix + "minimum-calls", window, 1),
                ratio,
                duration(prefix + "open-for", "PT5S"),
                integer(prefix + "half-open-calls", 1, 1));
    }

    static String key(String service, String suffix) {
        return "overseer.agent.service." + service + "." + suffix;
    }

    private StatusClassification classification(String key, String spec) {
        try {
            return StatusClassification.parse(config.apply(key).orElse(spec));
        } catch (IllegalArgumentException e) {
            throw new AgentConfigurationException(key + ": " + e.getMessage());
        }
    }

    private int integer(String key, int fallback, int min) {
        String value = config.apply(key).orElse(Integer.toString(fallback));
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new AgentConfigurationException(key + " must be an integer >= " + min + ", got '" + value + "'");
    }

    private static double decimal(String key, String value) {
        try {
            double parsed = Double.parseDouble(value.trim());
            if (parsed > 0 && parsed <= 1) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new AgentConfigurationException(key + " must be in (0, 1], got '" + value + "'");
    }

    private Duration duration(String key, String fallback) {
        String value = config.apply(key).orElse(fallback);
        try {
            Duration parsed = Duration.parse(value.trim());
            if (!parsed.isNegative() && !parsed.isZero()) {
                return parsed;
            }
        } catch (DateTimeParseException e) {
            // reported below
        }
        throw new AgentConfigurationException(key + " must be a positive ISO-8601 duration (PT5S), got '" + value + "'");
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String trimSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String fail(String message) {
        throw new AgentConfigurationException(message);
    }

    /** A circuit breaker's settings: see docs/agents.md and docs/configuration.md. */
    public record CircuitSettings(boolean enabled, int window, int minimumCalls, double failureRatio,
            Duration openFor, int halfOpenCalls) {
    }
}
