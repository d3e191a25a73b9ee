package io.overseer.launcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data directory's lock file: two launchers on one data directory would kill each other's children as
 * "stale" ({@link StaleProcesses}), so the second one is refused early.
 */
final class DataDirLock {

    private static final Logger LOG = LoggerFactory.getLogger(DataDirLock.class);

    private final Path dataDir;
    private FileChannel channel;
    private FileLock lock;

    DataDirLock(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** Takes the lock, once; the directory is made first, closed to others. */
    synchronized void acquire() throws IOException {
        if (lock != null) {
            return;
        }
        // Owner only: it holds the broker's and the servers' generated configuration, passwords included.
        OwnerOnly.directory(dataDir);
        channel = FileChannel.open(dataDir.resolve("launcher.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        lock = channel.tryLock();
        if (lock == null) {
            channel.close();
            channel = null;
            throw new IllegalStateException("another launcher is running on " + dataDir
                    + " (use --data-dir for a second stack)");
        }
    }

    /** Safe when not held. */
    synchronized void release() {
        try {
            if (lock != null) {
                lock.release();
                channel.close();
            }
        } catch (IOException e) {
            LOG.debug("releasing the data-dir lock: {}", e.toString());
        }
        lock = null;
        channel = null;
    }
}
