package io.overseer.chaos;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;

/** The order every submission carries: one line, its own customer id (how the checker finds it). */
record OrderBody(String customerId, List<Line> items) {

    record Line(String sku, int quantity) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static String json(String customerId) {
        try {
            return JSON.writeValueAsString(new OrderBody(customerId, List.of(new Line("A-1", 1))));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
