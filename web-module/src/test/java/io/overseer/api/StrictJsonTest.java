package io.overseer.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.overseer.submission.OrderRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class StrictJsonTest {

    @Test
    void bindsAnOrder() {
        OrderRequest order = StrictJson.read("{\"customerId\":\"c-1\",\"items\":[{\"sku\":\"A-1\",\"quantity\":2}]}",
                OrderRequest.class);

        assertEquals(new OrderRequest("c-1", List.of(new OrderRequest.Item("A-1", 2)), null, null, null, null), order);
    }

    @Test
    void bindsAttributesAndRefusesWhatCannotBeAnAttributeMap() {
        OrderRequest order = StrictJson.read("{\"customerId\":\"c-1\",\"items\":[{\"sku\":\"A-1\",\"quantity\":2}],"
                + "\"attributes\":{\"region\":\"eu\",\"channel\":\"web\"}}", OrderRequest.class);
        assertEquals(java.util.Map.of("region", "eu", "channel", "web"), order.attributes());

        String longKey = "k".repeat(5_000);
        var e = assertThrows(InvalidRequestException.class, () -> StrictJson.read("{\"customerId\":\"c\",\"items\":[],"
                + "\"attributes\":{\"" + longKey + "\":\"v\",\"n\":7}}", OrderRequest.class));
        List<String> fields = e.errors().stream().map(Problem.FieldError::field).toList();
        assertEquals(2, fields.size(), fields.toString());
        assertEquals("attributes." + "k".repeat(64) + "…", fields.get(0), "a long name is shown cut");
        assertEquals("attributes.n", fields.get(1));
        assertThrows(InvalidRequestException.class, () -> StrictJson.read(
                "{\"customerId\":\"c\",\"items\":[],\"attributes\":[\"region\"]}", OrderRequest.class));
    }

    @Test
    void aBatchLeavesItsOrdersUnboundAndEachIsThenBoundAloneNamingItsOwnFields() {
        OrderBatchRequest batch = StrictJson.read("{\"orders\":[{\"customerId\":\"c-1\",\"items\":"
                + "[{\"sku\":\"A-1\",\"quantity\":2}]},{\"customerId\":7,\"items\":[],\"worklfow\":\"x\"},42,null]}",
                OrderBatchRequest.class);

        assertEquals(4, batch.orders().size(), "a bad order does not refuse the batch");
        assertEquals(new OrderRequest("c-1", List.of(new OrderRequest.Item("A-1", 2)), null, null, null, null),
                StrictJson.bind(batch.orders().get(0).asJsonObject(), OrderRequest.class));
        var e = assertThrows(InvalidRequestException.class,
                () -> StrictJson.bind(batch.orders().get(1).asJsonObject(), OrderRequest.class));
        assertEquals(List.of("customerId", "worklfow"), e.errors().stream().map(Problem.FieldError::field).toList());
        assertEquals(jakarta.json.JsonValue.ValueType.NUMBER, batch.orders().get(2).getValueType());
        assertNull(batch.orders().get(3));
        assertThrows(InvalidRequestException.class, () -> StrictJson.read("{\"orders\":[],\"more\":1}",
                OrderBatchRequest.class), "the envelope itself is strict");
    }

    @Test
    void anEmptyBodyIsNull() {
        assertNull(StrictJson.read("  ", OrderRequest.class));
    }

    @Test
    void namesUnknownFieldsAndWrongTypesTogether() {
        var e = assertThrows(InvalidRequestException.class, () -> StrictJson.read(
                "{\"customerId\":7,\"items\":[{\"sku\":\"A\",\"quantity\":\"2\",\"price\":1}],\"worklfow\":\"x\"}",
                OrderRequest.class));

        assertEquals(List.of("customerId", "items[0].quantity", "items[0].price", "worklfow"),
                e.errors().stream().map(Problem.FieldError::field).toList());
    }

    @Test
    void refusesIntegersThatAreNotIntegers() {
        for (String quantity : List.of("2.5", "1e3", "99999999999", "true", "[]")) {
            var e = assertThrows(InvalidRequestException.class, () -> StrictJson.read(
                    "{\"customerId\":\"c\",\"items\":[{\"sku\":\"A\",\"quantity\":" + quantity + "}]}", OrderRequest.class));
            assertEquals(List.of("items[0].quantity"), e.errors().stream().map(Problem.FieldError::field).toList(), quantity);
        }
    }

    @Test
    void refusesStructureItCannotTrust() {
        for (String body : List.of("[1]", "\"x\"", "null", "{\"a\":1} {}", "{\"a\":", "{\"customerId\":\"a\",\"customerId\":\"b\"}",
                "{\"items\":" + "[".repeat(StrictJson.MAX_DEPTH) + "]".repeat(StrictJson.MAX_DEPTH) + "}")) {
            assertThrows(InvalidRequestException.class, () -> StrictJson.read(body, OrderRequest.class), body);
        }
    }

    @Test
    void nestingUpToTheLimitIsParsed() {
        String nested = "[".repeat(StrictJson.MAX_DEPTH - 1) + "]".repeat(StrictJson.MAX_DEPTH - 1);
        var e = assertThrows(InvalidRequestException.class, () -> StrictJson.read("{\"items\":" + nested + "}",
                OrderRequest.class));
        assertEquals(List.of("items[0]"), e.errors().stream().map(Problem.FieldError::field).toList(),
                "parsed, then refused for its shape, not its depth");
    }
}
