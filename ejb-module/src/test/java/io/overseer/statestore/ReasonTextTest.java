package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the state store keeps of a reason written by someone else. */
class ReasonTextTest {

    @Test
    void shortTextIsKeptAsItIs() {
        assertNull(ReasonText.stored(null));
        assertEquals("HTTP 422: declined\n\tby the bank", ReasonText.stored("HTTP 422: declined\n\tby the bank"));
        String full = "x".repeat(ReasonText.MAX_LENGTH);
        assertEquals(full, ReasonText.stored(full));
    }

    @Test
    void longTextIsCutToTheColumnAndSaysSo() {
        String stored = ReasonText.stored("declined: " + "x".repeat(5000));

        assertEquals(ReasonText.MAX_LENGTH, stored.length());
        assertTrue(stored.startsWith("declined: xxx"), stored);
        assertTrue(stored.endsWith("x…"), stored);
    }

    @Test
    void aCutNeverSplitsACharacter() {
        String emoji = "\uD83D\uDE00";   // one character, two UTF-16 units
        String stored = ReasonText.stored("x".repeat(ReasonText.MAX_LENGTH - 2) + emoji + "tail");

        assertEquals("x".repeat(ReasonText.MAX_LENGTH - 2) + "…", stored);
    }

    @Test
    void controlCharactersThatTheDatabaseOrTheJsonWouldChokeOnAreReplaced() {
        assertEquals("bad\uFFFDbyte\uFFFD", ReasonText.stored("bad\u0000byte\u0001"));
    }
}
