package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogWatchTest {

    private static final String MARKER = "Exception while loading the app";

    @TempDir
    Path dir;

    @Test
    void seesOnlyWhatWasWrittenAfterItBegan() throws Exception {
        Path log = dir.resolve("server.log");
        Files.writeString(log, "an earlier life: " + MARKER + "\n");
        LogWatch watch = LogWatch.fromEnd(log, MARKER);
        assertFalse(watch.seen(), "the previous start's failure is not this one's");
        append(log, "booting\n");
        assertFalse(watch.seen());
        append(log, "SEVERE " + MARKER + " : CDI deployment failure\n");
        assertTrue(watch.seen());
    }

    @Test
    void findsAMarkerWrittenAcrossTwoLooks() throws Exception {
        Path log = dir.resolve("server.log");
        LogWatch watch = LogWatch.fromEnd(log, MARKER); // the file does not exist yet
        assertFalse(watch.seen());
        append(log, "SEVERE Exception while lo");
        assertFalse(watch.seen());
        append(log, "ading the app\n");
        assertTrue(watch.seen());
    }

    private static void append(Path log, String text) throws Exception {
        Files.writeString(log, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
