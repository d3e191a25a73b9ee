package io.overseer.statestore;

import java.util.List;

/**
 * A CDI event fired synchronously, inside the transaction, each time a record's transitions are stored:
 * observers (status notifications) act on exactly the transitions that commit, and make them roll back
 * if they fail. {@code processState} is the task's state after the last of them; {@code submitterNotified}
 * says whether the order has a reply-to for status notifications; {@code traceParent} is the order's trace
 * (null if it is not traced), for the observers' log lines.
 */
public record OrderTransitions(String orderId, ProcessState processState, boolean submitterNotified,
                               List<HistoryEntry> entries, String traceParent) {
}
