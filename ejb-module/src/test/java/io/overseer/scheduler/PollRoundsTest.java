package io.overseer.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.platform.CapturedLog;
import io.overseer.platform.DatabaseReachability;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A poll's rounds: full batches go on, a short or empty one ends it, the cap ends it, a failure is log.records(). */
class PollRoundsTest {

    private static final Logger LOG = Logger.getLogger(PollRoundsTest.class.getName());
    private static final String FAILURE = "Test poll failed; the next poll tries again";

    @RegisterExtension
    final CapturedLog log = new CapturedLog(LOG);
    private final PollRounds rounds = new PollRounds(LOG, "test", 3, FAILURE);
    private final DatabaseReachability database = new DatabaseReachability();
    private final List<List<String>> claims = new ArrayList<>();

    private int claim(List<String> ids) {
        claims.add(ids);
        return ids.size();
    }

    private static List<String> ids(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(i -> "o-" + i).toList();
    }

    @Test
    void fullBatchesGoOnUntilAShortOne() {
        Deque<List<String>> found = new ArrayDeque<>(List.of(ids(0, 2), ids(2, 2), ids(4, 1), ids(5, 2)));
        int claimed = rounds.poll(batch -> found.removeFirst(), this::claim, 2, database);

        assertEquals(5, claimed);
        assertEquals(List.of(ids(0, 2), ids(2, 2), ids(4, 1)), claims);
    }

    @Test
    void anEmptyBatchEndsThePollWithoutAClaim() {
        assertEquals(0, rounds.poll(batch -> List.of(), this::claim, 2, database));
        assertTrue(claims.isEmpty(), claims.toString());
    }

    @Test
    void aPollStopsAfterItsRoundsEvenWhileBatchesStayFull() {
        AtomicInteger rounds = new AtomicInteger();
        int claimed = this.rounds.poll(batch -> ids(rounds.getAndIncrement() * batch, batch), this::claim, 2, database);

        assertEquals(3, rounds.get());
        assertEquals(6, claimed);
    }

    @Test
    void aPollStartedWhileTheLastStillRunsDoesNothing() {
        List<Integer> inner = new ArrayList<>();
        int claimed = rounds.poll(batch -> {
            inner.add(rounds.poll(b -> List.of("never"), this::claim, 1, database));
            return List.of("o-1");
        }, this::claim, 2, database);

        assertEquals(List.of(0), inner);
        assertEquals(1, claimed);
        assertEquals(List.of(List.of("o-1")), claims);
    }

    @Test
    void aFailedPollIsLoggedAndTheNextOneRuns() {
        assertEquals(0, rounds.poll(batch -> {
            throw new IllegalStateException("database down");
        }, this::claim, 2, database));

        assertEquals(1, log.records().size());
        assertEquals(Level.WARNING, log.records().get(0).getLevel());
        assertEquals(FAILURE, log.records().get(0).getMessage());
        assertEquals(1, rounds.poll(batch -> List.of("o-1"), this::claim, 2, database));
    }

    @Test
    void aBatchThatFailsIsClaimedOneByOne() {
        int claimed = rounds.poll(batch -> List.of("o-1", "bad", "o-2"), ids -> {
            if (ids.size() > 1 || ids.contains("bad")) {
                throw new IllegalStateException("cannot claim");
            }
            return claim(ids);
        }, 5, database);

        assertEquals(2, claimed);
        assertEquals(List.of(List.of("o-1"), List.of("o-2")), claims);
        assertEquals("Could not claim test order bad; the next poll tries again", log.records().get(0).getMessage());
    }

    @Test
    void aPollTellsThisInstanceWhetherItReachesTheDatabase() {
        rounds.poll(batch -> {
            throw new IllegalStateException(new SQLException("The connection attempt failed.", "08001"));
        }, this::claim, 2, database);
        assertTrue(database.isLost(), "a poll that could not connect: the consumers hand deliveries back");

        rounds.poll(batch -> List.of(), this::claim, 2, database);
        assertFalse(database.isLost(), "a poll that read the database: the consumers take deliveries again");

        rounds.poll(batch -> {
            throw new IllegalStateException("a bug, not the database");
        }, this::claim, 2, database);
        assertFalse(database.isLost());
    }
}
