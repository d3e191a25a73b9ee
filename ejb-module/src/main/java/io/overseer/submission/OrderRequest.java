package io.overseer.submission;

import java.util.Map;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * A new order, as submitted over HTTP or as a JSON text message on the order queue. {@code workflow}
 * names the task type to run (default "order"). {@code replyTo}, if set, asks for status notifications on
 * a queue ({@code overseer.reply.<user>.name} or {@code queue://overseer.reply.<user>.name}) or a topic
 * ({@code topic://overseer.reply.<user>.name}) of the submitter's own, {@code <user>} being its name; no
 * other destination is accepted (see {@link io.overseer.notification.ReplyToRule}). {@code notBefore}, if set, delays the order's first
 * step until that instant (ISO-8601 with an offset, e.g. {@code 2026-12-01T08:00:00Z}; at most
 * {@link DelayedStart#MAX_DELAY} ahead): the order is accepted and stored at once.
 *
 * <p>Free text (customerId) may be any script, right-to-left ones and emoji included, but no control
 * characters (NUL, which PostgreSQL cannot store, line breaks that would forge log lines), no unpaired
 * surrogate halves (not Unicode text; the database would store them as "?") and no bidirectional
 * override or isolate characters (text that displays other than it reads, "Trojan Source").
 *
 * <p>{@code attributes}, if set, are what the business knows of the order — a region, a channel, a merchant, a
 * batch id — kept with it, shown with it and filtered on: at most {@value #MAX_ATTRIBUTES}, each name
 * {@value #ATTRIBUTE_NAME} (lower case, 1–40 characters), each value free text of at most 100 characters.
 */
public record OrderRequest(
        @NotBlank @Size(max = 100) @Pattern(regexp = TEXT, message = TEXT_MESSAGE) String customerId,
        @NotNull @Size(min = 1, max = 100) List<@NotNull @Valid Item> items,
        @Pattern(regexp = "[a-z0-9][a-z0-9-]{0,63}") String workflow,
        @Pattern(regexp = REPLY_TO, message = "must be a queue or topic named overseer.reply.<your user>.<name>"
                + " (<name>: 1-180 of A-Z a-z 0-9 . _ -), optionally written queue://… or topic://…") String replyTo,
        @Size(max = 64) String notBefore,
        @Size(max = MAX_ATTRIBUTES, message = "at most " + MAX_ATTRIBUTES + " attributes")
        Map<@NotNull @Pattern(regexp = ATTRIBUTE_NAME, message = "must match " + ATTRIBUTE_NAME) String,
            @NotNull @Size(max = 100) @Pattern(regexp = TEXT, message = TEXT_MESSAGE) String> attributes) {

    /** How many attributes an order may carry, and what their names look like. */
    public static final int MAX_ATTRIBUTES = 16;
    public static final String ATTRIBUTE_NAME = "[a-z][a-z0-9_.-]{0,39}";

    /** The attributes, never null. */
    public Map<String, String> attributesOrEmpty() {
        return attributes == null ? Map.of() : attributes;
    }

    /** Internal destinations can never match: every accepted name starts with the reply prefix. */
    static final String REPLY_TO = "((queue|topic)://)?overseer\\.reply\\.[A-Za-z0-9._-]{1,180}";

    /** Text without control characters, unpaired surrogates or bidirectional overrides (see above). */
    public static final String TEXT = "[^\\p{Cc}\\p{Cs}\\x{202A}-\\x{202E}\\x{2066}-\\x{2069}]*";
    public static final String TEXT_MESSAGE =
            "must not contain control characters, unpaired surrogates or bidirectional overrides";

    public record Item(
            @NotBlank @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9._-]+") String sku,
            @NotNull @Min(1) @Max(10_000) Integer quantity) {
    }
}
