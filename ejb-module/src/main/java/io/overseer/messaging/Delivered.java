package io.overseer.messaging;

import java.util.List;

/**
 * Fired (synchronously, on the courier's thread, with no transaction) once the broker has committed the
 * parcels that carried these receipts — so that whoever kept a durable copy until then can let it go.
 */
public record Delivered(List<String> receipts) {
}
