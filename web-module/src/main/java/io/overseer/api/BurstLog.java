package io.overseer.api;

import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logs a kind of refusal once per burst: a warning for the first, then at most one line per quiet period
 * saying how many followed. A client hammering a limit must not flood the log (nor hide other lines in it).
 */
final class BurstLog {

    /** How long refusals of one kind are counted before they are logged again. */
    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Logger log;
    private final String what;
    private long lastLogged = System.nanoTime() - QUIET_NANOS;
    private long since;

    /** @param what how each line starts, e.g. "Event stream refused" */
    BurstLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    synchronized void log(String why) {
        since++;
        if (System.nanoTime() - lastLogged >= QUIET_NANOS) {
            log.log(Level.WARNING, "{0}: {1} ({2} of this kind since the last such line)", new Object[] {what, why, since});
            lastLogged = System.nanoTime();
            since = 0;
        }
    }
}
