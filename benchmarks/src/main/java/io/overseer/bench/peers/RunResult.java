package io.overseer.bench.peers;

/**
 * One timed run: {@code seconds} from the peer's start until the last of {@code tasks} was recorded as
 * done in the database; {@code enqueueSeconds} is the untimed-for-throughput batch insert beforehand.
 */
record RunResult(int tasks, double seconds, double enqueueSeconds, double firstExecutionSeconds) {

    double perSecond() {
        return tasks / seconds;
    }
}
