package io.overseer.bench;

import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/** Progress lines on stderr; stdout carries only the report. */
final class Log {

    private Log() {
    }

    static void info(String message) {
        System.err.println("bench " + LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + " " + message);
        System.err.flush();
    }
}
