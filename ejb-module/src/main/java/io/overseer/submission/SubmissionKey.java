package io.overseer.submission;

import io.overseer.platform.Json;
import io.overseer.workflow.WorkflowRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A client's promise that a submission is "the same one" as any other with this key: the HTTP
 * {@code Idempotency-Key} header, or a JMS client's business key. For as long as the key is kept
 * ({@code overseer.submission.key-retention}, at least 24 h), {@link OrderSubmission#submit(OrderRequest,
 * SubmissionKey)} answers every submission with the same scope and key with the one order the first
 * created; a submission whose request differs (another fingerprint) is refused with
 * {@link SubmissionKeyConflictException}.
 *
 * @param scope       whose keys these are, channel and authenticated caller, e.g. {@code http:alice} or
 *                    {@code jms:legacy-erp}: two callers never share keys. At most 200 characters.
 * @param key         the client's key, 1–255 characters.
 * @param fingerprint identifies the request; see {@link #fingerprint(OrderRequest)}. 64 hex characters.
 */
public record SubmissionKey(String scope, String key, String fingerprint) {

    public static final int MAX_SCOPE = 200;
    public static final int MAX_KEY = 255;

    public SubmissionKey {
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (scope.isEmpty() || scope.length() > MAX_SCOPE || key.isEmpty() || key.length() > MAX_KEY
                || fingerprint.length() != 64) {
            throw new IllegalArgumentException("scope 1-" + MAX_SCOPE + ", key 1-" + MAX_KEY
                    + " characters and a SHA-256 hex fingerprint are required");
        }
    }

    /** The key for this request, fingerprinted with {@link #fingerprint(OrderRequest)}. */
    public static SubmissionKey of(String scope, String key, OrderRequest request) {
        return new SubmissionKey(scope, key, fingerprint(request));
    }

    /**
     * SHA-256 (hex) of the request's canonical JSON: properties in JSON-B's fixed (lexicographic) order,
     * items in the order given, the default workflow written out. So two requests that mean the same
     * order have one fingerprint however their JSON was spaced, ordered or whether "workflow" was left out.
     * The body's {@code replyTo} counts (another reply queue is another request), and so does its
     * {@code notBefore}, as an instant; a JMS message's own reply-to is not part of the request, so a
     * resend from a new connection matches.
     */
    public static String fingerprint(OrderRequest request) {
        String workflow = request.workflow() == null ? WorkflowRegistry.DEFAULT_WORKFLOW : request.workflow();
        // Attributes in name order, and none written when there are none: a key taken before attributes
        // existed keeps its fingerprint.
        String canonical = Json.write(new OrderRequest(request.customerId(), request.items(), workflow,
                request.replyTo(), instant(request.notBefore()),
                request.attributesOrEmpty().isEmpty() ? null : new java.util.TreeMap<>(request.attributes())));
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** notBefore as an instant, however its offset was written; as given if it is no date-time (refused later). */
    private static String instant(String notBefore) {
        try {
            return notBefore == null ? null : java.time.OffsetDateTime.parse(notBefore).toInstant().toString();
        } catch (java.time.format.DateTimeParseException e) {
            return notBefore;
        }
    }
}
