package io.overseer.notification;

import io.overseer.messaging.Destinations;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which reply-to destinations a submitter may name. The application's broker user may send to every
 * internal destination, so without this rule a client could have it write into {@code agent.requests} or
 * the management address (a confused deputy). Accepted:
 * <ul>
 * <li>a queue or topic whose name starts with {@value Destinations#REPLY_PREFIX};</li>
 * <li>a temporary queue or topic of the client's connection — but the type is the client's claim, so its
 * name must still not be internal ({@link Destinations#isInternal}).</li>
 * </ul>
 * Names are at most 200 characters of {@code [A-Za-z0-9._:-]}: no broker wildcards ({@code #}, {@code *})
 * that would fan a notification out to other addresses, no address parameters ({@code ?}).
 */
public final class ReplyToRule {

    public static final int MAX_LENGTH = 200;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1," + MAX_LENGTH + "}");

    private ReplyToRule() {
    }

    /** Why the client may not name this destination, or empty if it may. */
    public static Optional<String> violation(ReplyTo replyTo) {
        String name = replyTo.name();
        if (name == null || !NAME.matcher(name).matches()) {
            return Optional.of("reply-to '" + abbreviate(name) + "' must be 1-" + MAX_LENGTH
                    + " characters of A-Z a-z 0-9 . _ : -");
        }
        if (Destinations.isInternal(name)) {
            return Optional.of("reply-to '" + name + "' names an internal destination");
        }
        if (!replyTo.kind().isTemporary() && !name.startsWith(Destinations.REPLY_PREFIX)) {
            return Optional.of("reply-to '" + name + "' must be a temporary destination or a queue or topic named "
                    + Destinations.REPLY_PREFIX + "…");
        }
        return Optional.empty();
    }

    private static String abbreviate(String name) {
        return name == null ? "" : name.length() <= 60 ? name : name.substring(0, 60) + "…";
    }
}
