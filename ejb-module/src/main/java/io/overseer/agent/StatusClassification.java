package io.overseer.agent;

import io.overseer.agent.api.CallResult;
import java.util.BitSet;
import java.util.Locale;

/**
 * How an HTTP remote operation's answers are classified: 2xx is success, the statuses listed as
 * transient are retried within the deadline, and every other status is a refusal (nontransient)
 * reported to the scheduler at once. Network failures and timeouts are always transient.
 *
 * <p>Written as a comma-separated list of statuses ({@code 409}), ranges ({@code 500-504}) and
 * classes ({@code 5xx}), e.g. the default {@value #DEFAULT}: timeouts (408), conflicts with a request
 * still in progress under the same idempotency key (409, 425), throttling (429) and server errors.
 */
public final class StatusClassification {

    public static final String DEFAULT = "408,409,425,429,5xx";

    private final BitSet transientStatuses;
    private final String spec;

    private StatusClassification(BitSet transientStatuses, String spec) {
        this.transientStatuses = transientStatuses;
        this.spec = spec;
    }

    /** Parses a list as described in the class comment; the message of a failure names the bad entry. */
    public static StatusClassification parse(String spec) {
        BitSet statuses = new BitSet(600);
        for (String raw : spec.split(",")) {
            String entry = raw.trim().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            try {
                if (entry.matches("[1-5]xx")) {
                    int base = (entry.charAt(0) - '0') * 100;
                    statuses.set(base, base + 100);
                } else if (entry.matches("\\d{3}-\\d{3}")) {
                    int from = Integer.parseInt(entry.substring(0, 3));
                    int to = Integer.parseInt(entry.substring(4));
                    statuses.set(status(from), status(to) + 1);
                } else {
                    statuses.set(status(Integer.parseInt(entry)));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + raw.trim() + "' is not a status, range (500-504) or class (5xx)");
            }
        }
        if (statuses.nextSetBit(200) >= 200 && statuses.nextSetBit(200) < 300) {
            throw new IllegalArgumentException("2xx statuses are successes and cannot be transient: " + spec);
        }
        return new StatusClassification(statuses, spec.trim());
    }

    private static int status(int value) {
        if (value < 100 || value > 599) {
            throw new NumberFormatException();
        }
        return value;
    }

    public CallResult classify(int status, String body) {
        if (status >= 200 && status < 300) {
            return CallResult.success(body);
        }
        String detail = "HTTP " + status + (body == null || body.isBlank() ? "" : ": " + CallResults.abbreviate(body));
        return transientStatuses.get(status) ? CallResult.transientFault(detail) : CallResult.refused(detail);
    }

    @Override
    public String toString() {
        return "transient " + spec;
    }
}
