package io.overseer.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DelayedStartTest {

    private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 11, 24, 12, 0, 0, 0, ZoneOffset.UTC);

    @Test
    void aLaterInstantIsKeptInUtcWhateverItsOffset() throws InvalidOrderException {
        assertEquals(Optional.of(NOW.plusHours(1)), DelayedStart.of("2026-11-24T14:00:00+01:00", NOW));
        assertEquals(Optional.of(NOW.plusSeconds(1)), DelayedStart.of("2026-11-24T12:00:01Z", NOW));
    }

    @Test
    void noneOrOneAlreadyPastStartsAtOnce() throws InvalidOrderException {
        assertEquals(Optional.empty(), DelayedStart.of(null, NOW));
        assertEquals(Optional.empty(), DelayedStart.of("2026-11-24T12:00:00Z", NOW));
        assertEquals(Optional.empty(), DelayedStart.of("2020-01-01T00:00:00Z", NOW));
    }

    @Test
    void aValueThatIsNoInstantOrTooFarAheadIsRefusedSayingWhy() throws InvalidOrderException {
        for (String bad : new String[] {"tomorrow", "2026-11-25", "2026-11-25T08:00:00", "", "1732449600"}) {
            InvalidOrderException e = assertThrows(InvalidOrderException.class, () -> DelayedStart.of(bad, NOW), bad);
            assertTrue(e.getMessage().contains("ISO-8601"), e.getMessage());
        }
        assertEquals(Optional.of(NOW.plusDays(366)), DelayedStart.of("2027-11-25T12:00:00Z", NOW));
        InvalidOrderException far = assertThrows(InvalidOrderException.class,
                () -> DelayedStart.of("2027-11-25T12:00:01Z", NOW));
        assertTrue(far.getMessage().contains("366 days"), far.getMessage());
    }
}
