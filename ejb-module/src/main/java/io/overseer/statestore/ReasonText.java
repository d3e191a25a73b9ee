package io.overseer.statestore;

/**
 * A reason as the state store keeps it (a record's last error, a history entry's reason). Much of it is
 * written by others — a remote service's refusal, a coded agent's message — so it is made to fit here,
 * once, rather than trusted: text that does not fit its column fails the whole transition, which rolls
 * back, is redelivered, ends in the dead-letter queue, and leaves the step to time out instead of failing.
 */
public final class ReasonText {

    /** The length of the columns that hold a reason (order_state.last_error, order_history.reason). */
    static final int MAX_LENGTH = 1000;
    private static final char CUT = '…';
    private static final char REPLACEMENT = '\uFFFD';

    private ReasonText() {
    }

    /**
     * At most {@value #MAX_LENGTH} characters, ending in "…" when cut, and without control characters
     * other than tab and line breaks: PostgreSQL refuses NUL in text outright, and each other control
     * character grows to six in the JSON of a status notification, whose outbox row is bounded too.
     */
    public static String stored(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder kept = new StringBuilder(Math.min(text.length(), MAX_LENGTH));
        for (int i = 0; i < text.length() && kept.length() < MAX_LENGTH; i++) {
            char c = text.charAt(i);
            kept.append(Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r' ? REPLACEMENT : c);
        }
        if (text.length() <= MAX_LENGTH) {
            return kept.toString();
        }
        kept.setLength(MAX_LENGTH - 1);
        if (Character.isHighSurrogate(kept.charAt(kept.length() - 1))) {
            kept.setLength(kept.length() - 1);   // never half a character
        }
        return kept.append(CUT).toString();
    }
}
