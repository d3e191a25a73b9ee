package io.overseer.remoteservice;

import java.util.concurrent.atomic.AtomicLong;

/** In-memory traffic counters and call traces; unlike the ledger they do not survive a restart. */
final class RequestCounters {

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong replays = new AtomicLong();
    private final AtomicLong faultsInjected = new AtomicLong();
    private final OperationTraffic traffic = new OperationTraffic();
    private final ServiceTimes serviceTimes = new ServiceTimes();
    private final CallTraces traces = new CallTraces();

    OperationTraffic traffic() {
        return traffic;
    }

    ServiceTimes serviceTimes() {
        return serviceTimes;
    }

    CallTraces traces() {
        return traces;
    }

    void request() {
        requests.incrementAndGet();
    }

    void replay() {
        replays.incrementAndGet();
    }

    void faultInjected() {
        faultsInjected.incrementAndGet();
    }

    StatsView withLedger(LedgerCounts ledger) {
        return new StatsView(ledger.applied(), ledger.appliedTwice(), replays.get(), requests.get(),
                faultsInjected.get(), ledger.byOperation(), serviceTimes.view());
    }

    void reset() {
        requests.set(0);
        replays.set(0);
        faultsInjected.set(0);
        serviceTimes.clear();
        traces.clear();
    }
}
