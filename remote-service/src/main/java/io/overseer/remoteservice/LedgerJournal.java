package io.overseer.remoteservice;

import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * The append-only JSON-lines file behind the ledger. Only a newline-terminated, parseable line counts:
 * a write is answered after it is forced, so a torn last line was never acknowledged and may go.
 */
final class LedgerJournal implements Closeable {

    static final String FILE_NAME = "effects.jsonl";
    private static final System.Logger LOG = System.getLogger(LedgerJournal.class.getName());

    private final Path file;
    private final FileChannel channel;
    private long size;
    private long appended;

    private LedgerJournal(Path file, FileChannel channel, long size, long records) {
        this.file = file;
        this.channel = channel;
        this.size = size;
        this.appended = records;
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
     * Not yet durable: call {@link #force()} before acknowledging.
     */
    synchronized long append(EffectRecord record) throws IOException {
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

    /** Makes every appended record durable; concurrent callers share the cost of one sync. */
    void force() throws IOException {
        channel.force(false);
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
