package io.overseer.platform;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;

/**
 * Tells a failure of the infrastructure — the database unreachable, restarting or refusing connections,
 * the connection pool empty — from a failure of the work itself. An outage passes by itself: a message is
 * delivered again ({@link io.overseer.messaging.Redelivery}), an HTTP client is told to retry later
 * (503 with Retry-After), and neither is treated as a poison message or a bug.
 */
public final class Outage {

    /** Causes looked at: a chain that loops back on itself ends here. */
    public static final int MAX_DEPTH = 32;

    private Outage() {
    }

    /**
     * Whether the failure says a resource is unreachable or unavailable for now, rather than that this
     * message cannot be processed: SQL states of class 08 (connection), 53 (insufficient resources),
     * 57 (operator intervention: shutdown, crash recovery), 40 (serialization failure, deadlock) and
     * 55P03 (lock not available); the JDBC driver's transient and recoverable exceptions; a refused
     * connection; a connection pool that could not hand out a connection.
     */
    public static boolean isOutage(Throwable failure) {
        int depth = 0;
        for (Throwable cause = failure; cause != null && depth++ < MAX_DEPTH; cause = next(cause)) {
            if (cause instanceof SQLTransientException || cause instanceof SQLRecoverableException
                    || cause instanceof ConnectException) {
                return true;
            }
            if (cause instanceof SQLException sql && isOutageState(sql.getSQLState())) {
                return true;
            }
            if (cause.getClass().getName().startsWith("jakarta.resource.") || isPoolsLostConnection(cause)) {
                return true; // the pool could not allocate a connection (ResourceException and its kind)
            }
            if (cause instanceof javax.transaction.xa.XAException || cause instanceof jakarta.transaction.SystemException) {
                // The transaction manager could not complete the transaction with its resource: a request's
                // transaction holds only the database (messages leave after the commit), so the database
                // went away mid-commit. The Payara chain keeps only the message, not the cause.
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the failure says the database cannot be reached at all — a connection refused, lost or not
     * made in time (SQL state class 08), or the pool unable to hand one out — as opposed to an outage the
     * database itself reports while it answers (a deadlock, a lock not available, a shutdown under way).
     * What {@link DatabaseReachability} is told.
     */
    public static boolean isUnreachable(Throwable failure) {
        int depth = 0;
        for (Throwable cause = failure; cause != null && depth++ < MAX_DEPTH; cause = next(cause)) {
            if (cause instanceof SQLRecoverableException || cause instanceof ConnectException
                    || cause.getClass().getName().startsWith("jakarta.resource.") || isPoolsLostConnection(cause)) {
                return true;
            }
            if (cause instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A NullPointerException thrown inside Payara's connection pool while it hands out a connection: the
     * pool closes every connection after one fails (fail-all-connections, docs/database-ha.md) and handed
     * out one it had just closed ("this.actualConnection is null", in {@code com.sun.gjc.spi}). Seen with a
     * database primary cut off under load: a submission answered 500 instead of 503 with Retry-After.
     */
    static boolean isPoolsLostConnection(Throwable cause) {
        if (!(cause instanceof NullPointerException)) {
            return false;
        }
        StackTraceElement[] frames = cause.getStackTrace();
        return frames.length > 0 && (frames[0].getClassName().startsWith("com.sun.gjc.spi.")
                || frames[0].getClassName().startsWith("com.sun.enterprise.resource."));
    }

    static boolean isOutageState(String state) {
        return state != null && (state.startsWith("08") || state.startsWith("53") || state.startsWith("57")
                || state.startsWith("40") || state.equals("55P03"));
    }

    /** The cause, including a SQLException's chained next exception (where a batch hides the reason). */
    public static Throwable next(Throwable cause) {
        Throwable next = cause.getCause();
        if (next == null && cause instanceof SQLException sql) {
            next = sql.getNextException();
        }
        return next == cause ? null : next;
    }
}
