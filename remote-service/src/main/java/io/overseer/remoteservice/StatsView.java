package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * Body of {@code GET /stats}. {@code applied} and {@code appliedTwice} come from the durable ledger;
 * {@code replays}, {@code requests}, {@code faultsInjected} and {@code serviceTime} (the simulator's own
 * time per call, per operation: {@link ServiceTimes}) count since start (or the last clear).
 */
@JsonPropertyOrder({"applied", "appliedTwice", "replays", "requests", "faultsInjected", "byOperation", "serviceTime"})
record StatsView(long applied, long appliedTwice, long replays, long requests, long faultsInjected,
                 Map<String, Long> byOperation, Map<String, ServiceTimes.View> serviceTime) {
}
