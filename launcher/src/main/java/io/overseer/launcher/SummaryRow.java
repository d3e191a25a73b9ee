package io.overseer.launcher;

/** One line of the banner ({@link Summary}): a label and what it points at. */
public record SummaryRow(String label, String value) {
}
