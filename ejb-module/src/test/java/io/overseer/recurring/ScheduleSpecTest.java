package io.overseer.recurring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A schedule as a client writes it, read into rules: defaults, instants kept as PostgreSQL keeps them (so the
 * ticks previewed before the row is stored are the ones fired after), and a problem naming the field for
 * each mistake.
 */
class ScheduleSpecTest {

    private static final Instant CREATED = Instant.parse("2026-11-29T17:37:46.161941567Z");

    @Test
    void anIntervalWithoutAStartTicksFromItsCreationsWholeSecond() {
        ScheduleRules rules = spec("PT2S", null, null).rules(CREATED);
        assertEquals(Instant.parse("2026-11-29T17:37:46Z"), rules.schedule().recurrence().start());
        assertEquals(Instant.parse("2026-11-29T17:37:48Z"), rules.schedule().recurrence().next(CREATED).orElseThrow());
        assertEquals(MissedTicks.FIRE_ONCE, rules.schedule().missed());
        assertEquals(Overlap.SKIP, rules.schedule().overlap());
        assertEquals(DaylightSaving.DEFAULT, rules.schedule().recurrence().daylightSaving());
    }

    @Test
    void aStartIsKeptToTheMicrosecondAsTheDatabaseKeepsIt() {
        ScheduleRules rules = spec("PT2S", "2026-12-01T00:00:00.123456789+01:00", null).rules(CREATED);
        assertEquals(Instant.parse("2026-11-30T23:00:00.123456Z"), rules.schedule().recurrence().start());
    }

    @Test
    void eachMistakeIsRefusedNamingItsField() {
        assertField("cron, every", new ScheduleSpec("s", null, null, null, null, null, null, null, null, null, null, null, null));
        assertField("every", spec("PT0.5S", null, null));
        assertField("every", spec("2 seconds", null, null));
        assertField("start", spec("PT2S", "tomorrow", null));
        assertField("end", spec("PT2S", "2026-12-02T00:00:00Z", "2026-12-01T00:00:00Z"));
        assertField("zone", new ScheduleSpec("s", "0 * * * *", null, "Mars/Olympus", null, null, null, null, null, null, null, null, null));
        assertField("missedTicks", new ScheduleSpec("s", "0 * * * *", null, null, null, null, "sometimes", null, null, null, null, null, null));
        assertField("catchUpWindow", new ScheduleSpec("s", "0 * * * *", null, null, null, null, "catch-up", null, 5, null, null, null, null));
        assertField("overlap", new ScheduleSpec("s", "0 * * * *", null, null, null, null, null, null, null, "queue", null, null, null));
        assertField("jitter", new ScheduleSpec("s", "0 * * * *", null, null, null, null, null, null, null, null, null, null, "PT2H"));
        assertField("cron", new ScheduleSpec("s", "0 0 30 2 *", null, null, null, null, null, null, null, null, null, null, null));
        assertField("id", new ScheduleSpec("Not An Id", "0 * * * *", null, null, null, null, null, null, null, null, null, null, null));
    }

    private static ScheduleSpec spec(String every, String start, String end) {
        return new ScheduleSpec("s", null, every, null, start, end, null, null, null, null, null, null, null);
    }

    private static void assertField(String field, ScheduleSpec spec) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> spec.rules(CREATED));
        assertTrue(refused.getMessage().startsWith(field + ": "), "'" + field + ": …' expected, not: " + refused.getMessage());
    }
}
