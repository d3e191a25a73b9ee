package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs on one directory, as the test tiers' two forks on one unpacked WildFly. */
class OncePerDirectoryTest {

    @Test
    void aSecondProcessWaitsForTheFirstAndDoesNotRepeatItsSetUp(@TempDir Path dir) throws Exception {
        Process other = new ProcessBuilder(Java.executable(), "-cp", System.getProperty("java.class.path"),
                Holder.class.getName(), dir.toString()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("inside", out.readLine(), "the other process entered its set-up");
            AtomicInteger ranHere = new AtomicInteger();
            boolean ran = OncePerDirectory.run(dir, "marker", ranHere::incrementAndGet);
            // Had we not waited for the other process's lock, its file would be missing and we would have run too.
            assertFalse(ran);
            assertEquals(0, ranHere.get());
            assertEquals("written by the other process", Files.readString(dir.resolve("set-up")));
            assertTrue(other.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, other.exitValue());
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void aSetUpCutShortIsDoneAgain(@TempDir Path dir) throws IOException {
        assertThrows(IOException.class, () -> OncePerDirectory.run(dir, "marker", () -> {
            throw new IOException("killed half-way");
        }));
        assertFalse(Files.exists(dir.resolve("marker")));
        AtomicInteger runs = new AtomicInteger();
        assertTrue(OncePerDirectory.run(dir, "marker", runs::incrementAndGet));
        assertFalse(OncePerDirectory.run(dir, "marker", runs::incrementAndGet));
        assertEquals(1, runs.get());
        assertEquals(List.of("marker", "marker.lock"), Files.list(dir).map(p -> p.getFileName().toString()).sorted().toList());
    }

    /** The other process: enters the set-up, says so, and takes its time before writing. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            OncePerDirectory.run(dir, "marker", () -> {
                System.out.println("inside");
                System.out.flush();
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Files.writeString(dir.resolve("set-up"), "written by the other process");
            });
        }
    }
}
