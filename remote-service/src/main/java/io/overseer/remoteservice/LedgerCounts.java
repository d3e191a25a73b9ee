package io.overseer.remoteservice;

import java.util.Map;

/** A consistent snapshot of the ledger's counters. */
record LedgerCounts(long applied, long appliedTwice, Map<String, Long> byOperation) {
}
