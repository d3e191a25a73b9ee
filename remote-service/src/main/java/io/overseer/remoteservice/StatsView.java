package io.overseer.remoteservice;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * Body of {@code GET /stats}. {@code applied} and {@code appliedTwice} come from the durable ledger;
 * {@code replays}, {@code requests} and {@code faultsInjected} count since start (or the last clear).
 */
@JsonPropertyOrder({"applied", "appliedTwice", "replays", "requests", "faultsInjected", "byOperation"})
record StatsView(long applied, long appliedTwice, long replays, long requests, long faultsInjected,
                 Map<String, Long> byOperation) {
}
