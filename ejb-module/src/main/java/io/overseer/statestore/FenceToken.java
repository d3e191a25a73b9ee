package io.overseer.statestore;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The random fencing token of one attempt: 128 bits from a {@link SecureRandom}, stored with the step and
 * sent with the agent request. Epochs and step numbers are small integers anyone can guess; the token is
 * what proves that a reply comes from someone who read the request — and only the application may read
 * the agent queues.
 */
final class FenceToken {

    private static final SecureRandom RANDOM = new SecureRandom();

    static String next() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Compares in constant time, so the time a refusal takes does not tell how much of a guess was right. */
    static boolean matches(String expected, String given) {
        return expected != null && given != null
                && MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), given.getBytes(StandardCharsets.US_ASCII));
    }

    private FenceToken() {
    }
}
