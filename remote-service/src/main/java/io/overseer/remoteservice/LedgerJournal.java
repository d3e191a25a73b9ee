package io.overseer.remoteservice;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The append-only JSON-lines file behind the ledger. Only a newline-terminated, parseable line counts:
 * a write is answered after it is forced, so a torn last line was never acknowledged and may go.
 *
 * <p>Forces are shared (group commit): appenders write their line, then wait in {@link #awaitDurable}
 * until a force that started after their write has finished. One force runs at a time; whoever finds
 * none running forces everything appended so far, and those who arrive meanwhile wait for the next
 * one. No timer: a lone appender pays one force as before, many appenders share one.
 */
final class LedgerJournal implements Closeable {

    static final String FILE_NAME = "effects.jsonl";
    private static final System.Logger LOG = System.getLogger(LedgerJournal.class.getName());

    private final Path file;
    private final FileChannel channel;
    // Guarded by this (the append lock). appended counts every append ever made and truncate does
    // not reset it, so durableThrough (compared with it) stays meaningful after a clear.
    private long size;
    private long appended;

    // Separate from the append lock and not held while forcing, so appenders keep appending (and
    // so join the next group) while a force runs. The two locks are never held together.
    private final ReentrantLock forceLock = new ReentrantLock();
    private final Condition forceDone = forceLock.newCondition();
    // Guarded by forceLock. Appends with a sequence number below durableThrough have been forced.
    private long durableThrough;
    private boolean forcing;
    private long forces;
    // Written under forceLock; volatile so that append can check it without taking forceLock.
    private volatile IOException forceFailure;

    private LedgerJournal(Path file, FileChannel channel, long size, long records) {
        this.file = file;
        this.channel = channel;
        this.size = size;
        this.appended = records;
        // What open() read back is on disk already (and the truncation of a torn tail was forced).
        this.durableThrough = records;
    }

    /**
     * Opens (creating if needed) the journal in {@code dataDir}, handing every stored record to {@code sink}
     * in order; the n-th record handed over has sequence number n-1, and appends continue from there.
     */
    static LedgerJournal open(Path dataDir, Consumer<EffectRecord> sink) throws IOException {
        Files.createDirectories(dataDir);
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            long[] records = {0};
            long good = JournalReplay.replay(file, Files.readAllBytes(file), record -> {
                sink.accept(record);
                records[0]++;
            });
            if (good < channel.size()) {
                LOG.log(Level.WARNING, "Truncating {0} from {1} to {2} bytes to drop an incomplete last line",
                        file, channel.size(), good);
                channel.truncate(good);
                channel.force(true);
            }
            return new LedgerJournal(file, channel, good, records[0]);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Writes one record and returns its sequence number, the record's place in journal order.
     * Not yet durable: call {@link #awaitDurable} with that number before acknowledging.
     */
    synchronized long append(EffectRecord record) throws IOException {
        failIfForceFailed();
        byte[] json = Json.MAPPER.writeValueAsBytes(record);
        ByteBuffer line = ByteBuffer.allocate(json.length + 1).put(json).put((byte) '\n').flip();
        try {
            while (line.hasRemaining()) {
                channel.write(line, size + line.position());
            }
        } catch (IOException e) {
            // A half-written line followed by good ones would make the journal unreadable at start.
            channel.truncate(size);
            throw e;
        }
        size += line.limit();
        return appended++;
    }

    /**
     * Returns once the append numbered {@code sequence} has been forced to disk, forcing it unless a
     * force already under way or about to start covers it.
     */
    void awaitDurable(long sequence) throws IOException {
        forceLock.lock();
        try {
            while (true) {
                failIfForceFailed();
                if (durableThrough > sequence) {
                    return;
                }
                if (!forcing) {
                    break;
                }
                // A force is running, but it may have started before our write: wait for its end,
                // then either we are covered or one of us starts the next force. Uninterruptible, as
                // FileChannel.force was: our line is written, only its durability is in question.
                forceDone.awaitUninterruptibly();
            }
            forcing = true;
        } finally {
            forceLock.unlock();
        }
        // We lead this force. Every append numbered below `covered` finished its write before we read
        // the count, so the force below covers it (and ours: sequence < covered).
        long covered = appendedSoFar();
        IOException failure = null;
        try {
            channel.force(false);
        } catch (IOException e) {
            failure = e;
        }
        forceLock.lock();
        try {
            forcing = false;
            if (failure == null) {
                durableThrough = covered;
                forces++;
            } else if (forceFailure == null) {
                forceFailure = failure;
            }
            forceDone.signalAll();
        } finally {
            forceLock.unlock();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Completed forces so far; with many concurrent appenders, well below the number of appends. */
    long forces() {
        forceLock.lock();
        try {
            return forces;
        } finally {
            forceLock.unlock();
        }
    }

    private synchronized long appendedSoFar() {
        return appended;
    }

    /**
     * After a failed force nothing written since the last good one can be called durable: the kernel
     * may have dropped those pages and a later force can still succeed (fsync reports an error once).
     * So the journal stops taking writes instead of acknowledging lines that may be lost; a restart
     * reads back what really is on disk.
     */
    private void failIfForceFailed() throws IOException {
        IOException failure = forceFailure;
        if (failure != null) {
            throw new IOException("Effect journal " + file + " failed to force earlier; restart the simulator",
                    failure);
        }
    }

    synchronized void truncate() throws IOException {
        channel.truncate(0);
        channel.force(true);
        size = 0;
        LOG.log(Level.INFO, "Cleared the effect journal {0}", file);
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel.isOpen()) {
            channel.force(true);
            channel.close();
        }
    }
}
