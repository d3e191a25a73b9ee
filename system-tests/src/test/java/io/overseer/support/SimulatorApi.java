package io.overseer.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;

/** The remote-service simulator's control API. */
public final class SimulatorApi {

    private final URI base;

    public SimulatorApi(URI base) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
    }

    public void fault(String operation, String mode, double rate, long latencyMs) {
        Http.Reply reply = Http.put(base.resolve("faults"), "{\"operation\":\"" + operation + "\",\"mode\":\"" + mode
                + "\",\"rate\":" + rate + ",\"latencyMs\":" + latencyMs + "}");
        assertEquals(200, reply.status(), reply.body());
    }

    public void clearFaults() {
        Http.Reply reply = Http.delete(base.resolve("faults"));
        assertEquals(204, reply.status(), reply.body());
    }

    /** Per operation: calls started, most in flight at once, most started in one calendar second. */
    public JsonNode traffic() {
        return Http.get(base.resolve("traffic")).json();
    }

    public void clearTraffic() {
        Http.Reply reply = Http.delete(base.resolve("traffic"));
        assertEquals(204, reply.status(), reply.body());
    }

    public JsonNode stats() {
        return Http.get(base.resolve("stats")).json();
    }

    /** Every effect in the ledger, in the order applied (every test's of this run). */
    public JsonNode effects() {
        return Http.get(base.resolve("effects")).json();
    }

    /** Effects applied for one order. */
    public JsonNode effects(String orderId) {
        return Http.get(base.resolve("effects?orderId=" + orderId)).json();
    }
}
