package io.overseer.launcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Set-up done once in a directory that several launchers may share, such as an unpacked distribution that
 * the test tiers' forks all start servers from. Whoever comes first does it, under a file lock that other
 * processes wait for; a marker written last says it is done, so a run cut short (kill -9) is done again.
 */
final class OncePerDirectory {

    /** Set-up that writes into the directory. */
    @FunctionalInterface
    interface SetUp {
        void run() throws IOException;
    }

    private OncePerDirectory() {
    }

    /** Runs {@code setUp} unless {@code marker} exists in {@code dir}; true if it ran here. */
    static boolean run(Path dir, String marker, SetUp setUp) throws IOException {
        // A FileLock belongs to the JVM, and a second one over the same file throws: threads queue here first.
        synchronized (OncePerDirectory.class) {
            try (FileChannel channel = FileChannel.open(dir.resolve(marker + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                    FileLock lock = channel.lock()) {
                Path done = dir.resolve(marker);
                if (Files.exists(done)) {
                    return false;
                }
                setUp.run();
                Files.writeString(done, "done" + System.lineSeparator());
                return true;
            }
        }
    }
}
