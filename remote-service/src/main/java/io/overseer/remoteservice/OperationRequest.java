package io.overseer.remoteservice;

import com.fasterxml.jackson.databind.JsonNode;

/** Body of {@code POST /operations/{operation}}; the payload is opaque to the simulator. */
record OperationRequest(String orderId, JsonNode payload) {
}
