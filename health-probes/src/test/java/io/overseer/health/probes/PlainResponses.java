package io.overseer.health.probes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.spi.HealthCheckResponseProvider;

/** Tests only: the API's response builder needs an implementation, which the servers bring at run time. */
public class PlainResponses implements HealthCheckResponseProvider {

    @Override
    public HealthCheckResponseBuilder createResponseBuilder() {
        return new HealthCheckResponseBuilder() {
            private String name;
            private HealthCheckResponse.Status status = HealthCheckResponse.Status.DOWN;
            private final Map<String, Object> data = new LinkedHashMap<>();

            @Override
            public HealthCheckResponseBuilder name(String name) {
                this.name = name;
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, String value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, long value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder withData(String key, boolean value) {
                data.put(key, value);
                return this;
            }

            @Override
            public HealthCheckResponseBuilder up() {
                return status(true);
            }

            @Override
            public HealthCheckResponseBuilder down() {
                return status(false);
            }

            @Override
            public HealthCheckResponseBuilder status(boolean up) {
                status = up ? HealthCheckResponse.Status.UP : HealthCheckResponse.Status.DOWN;
                return this;
            }

            @Override
            public HealthCheckResponse build() {
                return new HealthCheckResponse(name, status, data.isEmpty() ? Optional.empty() : Optional.of(Map.copyOf(data)));
            }
        };
    }
}
