package io.overseer.remoteservice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class ServiceTimesTest extends SimulatorTestSupport {

    @Test
    void statsReportTheServiceOwnTimePerOperation() throws InterruptedException {
        // An injected latency is service time: it must show in the figures, as a lower bound.
        client.putFault("{\"operation\":\"charge-payment\",\"mode\":\"latency\",\"latencyMs\":200}");
        assertEquals(200, client.apply("charge-payment", "k-1", "order-1").statusCode());
        assertEquals(200, client.apply("charge-payment", "k-2", "order-2").statusCode());
        assertEquals(200, client.apply("reserve-inventory", "k-3", "order-1").statusCode());
        awaitServiceTimes(3);

        JsonNode times = client.stats().get("serviceTime");
        JsonNode charge = times.get("charge-payment");
        assertEquals(2, charge.get("count").asLong());
        assertTrue(charge.get("totalMs").asDouble() >= 400, charge.toString());
        assertTrue(charge.get("p50Ms").asDouble() >= 200 * 7 / 8.0, charge.toString());
        assertTrue(charge.get("maxMs").asDouble() >= 200, charge.toString());
        assertEquals(charge.get("totalMs").asDouble() / 2, charge.get("meanMs").asDouble(), 1e-9);
        JsonNode reserve = times.get("reserve-inventory");
        assertEquals(1, reserve.get("count").asLong());
        assertTrue(reserve.get("totalMs").asDouble() > 0, reserve.toString());
    }

    @Test
    void refusedCallsCountAndAClearStartsAfresh() {
        client.putFault("{\"operation\":\"*\",\"mode\":\"error\",\"latencyMs\":50}");
        assertEquals(503, client.apply("charge-payment", "k-1", "order-1").statusCode());
        assertTrue(client.stats().get("serviceTime").get("charge-payment").get("totalMs").asDouble() >= 50);

        assertEquals(204, client.request("DELETE", "/effects").statusCode());
        assertFalse(client.stats().get("serviceTime").has("charge-payment"));
    }

    @Test
    void trafficCountsEachCallInTheTenthOfTheSecondItArrivedIn() {
        for (int i = 0; i < 3; i++) {
            assertEquals(200, client.apply("charge-payment", "k-t" + i, "order-t" + i).statusCode());
        }
        JsonNode traffic = SimulatorClient.json(client.request("GET", "/traffic")).get("charge-payment");
        assertEquals(3, traffic.get("starts").asLong(), traffic.toString());
        long counted = 0;
        for (JsonNode tenth : traffic.get("startsByTenthOfSecond")) {
            counted += tenth.asLong();
        }
        assertEquals(10, traffic.get("startsByTenthOfSecond").size(), traffic.toString());
        assertEquals(3, counted, traffic.toString());
    }

    @Test
    void theSimulatorTurnsNagleOffUnlessToldOtherwise() {
        // The JDK server reads this once; without it every java.net.http call waits ~40 ms on a delayed ACK.
        assertEquals("true", System.getProperty(RemoteServiceSimulator.NODELAY));
    }

    @Test
    void histogramBucketsAreWithinAnEighthOfTheValue() {
        for (long micros = 0; micros < 5_000_000; micros = micros < 64 ? micros + 1 : micros * 21 / 20) {
            double middle = ServiceTimes.Histogram.middle(ServiceTimes.Histogram.bucket(micros));
            assertTrue(Math.abs(middle - micros) <= micros / 8.0 + 0.5, micros + " -> " + middle);
        }
        ServiceTimes.Histogram h = new ServiceTimes.Histogram();
        for (int i = 1; i <= 100; i++) {
            h.record(i * 1_000_000L); // 1..100 ms
        }
        ServiceTimes.View v = h.view();
        assertEquals(100, v.count());
        assertEquals(5050, v.totalMs(), 1e-9);
        assertEquals(50, v.p50Ms(), 50 / 8.0);
        assertEquals(99, v.p99Ms(), 99 / 8.0);
        assertEquals(100, v.maxMs(), 1e-9);
    }
}
