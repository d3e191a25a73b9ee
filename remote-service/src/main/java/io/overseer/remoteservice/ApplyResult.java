package io.overseer.remoteservice;

/** What the ledger did with a request: applied it now, or found the effect of an earlier one. */
record ApplyResult(EffectRecord effect, boolean replayed) {
}
