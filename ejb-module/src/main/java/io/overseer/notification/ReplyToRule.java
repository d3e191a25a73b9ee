package io.overseer.notification;

import io.overseer.messaging.Destinations;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which reply-to destinations a submitter may name. The application's broker user may send to every
 * internal destination and to every client's queues, so without this rule a client could have it write
 * into {@code agent.requests} or the management address, or into a queue another client reads (a confused
 * deputy). Accepted:
 * <ul>
 * <li>a queue or topic named {@code overseer.reply.<submitter>.<anything>}: the submitter's own prefix
 * ({@link Destinations#replyPrefixOf}), which broker permissions let that user alone read (SECURITY.md);</li>
 * <li>a temporary queue of the submitter's connection, named in one word. The type is the client's claim,
 * so the name must still not be internal ({@link Destinations#isInternal}), and whose queue it is only the
 * broker knows: the caller asks it ({@link #needsOwnerCheck}).</li>
 * </ul>
 * Not accepted: temporary topics, whose creator the broker does not record, and names of another user.
 * Names are at most 200 characters of {@code [A-Za-z0-9._:-]}: no broker wildcards ({@code #}, {@code *})
 * that would fan a notification out to other addresses, no address parameters ({@code ?}).
 */
public final class ReplyToRule {

    public static final int MAX_LENGTH = 200;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1," + MAX_LENGTH + "}");

    private ReplyToRule() {
    }

    /**
     * Why {@code submitter} may not name this destination, or empty if it may (a temporary queue then still
     * needs its owner checked).
     *
     * @param submitter the broker-validated user of a JMS order, the HTTP user of a REST order; null if unknown
     */
    public static Optional<String> violation(ReplyTo replyTo, String submitter) {
        String name = replyTo.name();
        if (name == null || !NAME.matcher(name).matches()) {
            return Optional.of("reply-to '" + abbreviate(name) + "' must be 1-" + MAX_LENGTH
                    + " characters of A-Z a-z 0-9 . _ : -");
        }
        if (Destinations.isInternal(name)) {
            return Optional.of("reply-to '" + name + "' names an internal destination");
        }
        if (replyTo.kind() == ReplyTo.Kind.TEMPORARY_QUEUE) {
            // The broker lets the application ask who created a queue of a one-word name only (broker.xml's
            // mops.queue.*.getUser: a match holds "#" only at its end). Core and AMQP clients name theirs so.
            return name.indexOf('.') < 0 ? Optional.empty()
                    : Optional.of("reply-to '" + name + "' is a temporary queue whose name holds a dot, whose owner"
                            + " cannot be checked; use " + ownPrefix(submitter));
        }
        if (replyTo.kind() == ReplyTo.Kind.TEMPORARY_TOPIC) {
            return Optional.of("reply-to '" + name + "' is a temporary topic, whose owner the broker cannot tell;"
                    + " use a temporary queue or " + ownPrefix(submitter));
        }
        Optional<String> prefix = Destinations.replyPrefixOf(submitter);
        if (prefix.isEmpty() || !name.startsWith(prefix.get()) || name.length() == prefix.get().length()) {
            return Optional.of("reply-to '" + name + "' must be a temporary queue of the submitter's connection or"
                    + " a queue or topic named " + ownPrefix(submitter));
        }
        return Optional.empty();
    }

    /** A temporary queue is accepted only once the broker said the submitter created it. */
    public static boolean needsOwnerCheck(ReplyTo replyTo) {
        return replyTo.kind() == ReplyTo.Kind.TEMPORARY_QUEUE;
    }

    private static String ownPrefix(String submitter) {
        return Destinations.replyPrefixOf(submitter).map(prefix -> prefix + "…")
                .orElse(Destinations.REPLY_PREFIX + "<user>.… (not available to user '" + submitter
                        + "': a user name for it is 1-64 characters of A-Z a-z 0-9 _ -)");
    }

    private static String abbreviate(String name) {
        return name == null ? "" : name.length() <= 60 ? name : name.substring(0, 60) + "…";
    }
}
