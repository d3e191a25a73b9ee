package io.overseer.remoteservice;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Rebuilds state from journal bytes, telling a crash-torn tail apart from real corruption. */
final class JournalReplay {

    private static final System.Logger LOG = System.getLogger(JournalReplay.class.getName());

    private JournalReplay() {
    }

    /**
     * Hands each complete record to {@code sink} and returns the length of the good prefix.
     *
     * @throws IllegalStateException if a line other than the last cannot be read: that is not a torn
     *                               write but a damaged file, and guessing would break idempotency
     */
    static long replay(Path file, byte[] bytes, Consumer<EffectRecord> sink) {
        int start = 0;
        int lineNumber = 0;
        while (start < bytes.length) {
            int newline = indexOf(bytes, (byte) '\n', start);
            int end = newline < 0 ? bytes.length : newline;
            lineNumber++;
            String line = new String(bytes, start, end - start, StandardCharsets.UTF_8);
            EffectRecord record = newline < 0 ? null : parse(line);
            if (record == null && !line.isBlank()) {
                if (!onlyBlankAfter(bytes, end)) {
                    throw new IllegalStateException("Effect journal " + file + " is corrupt at line "
                            + lineNumber + " (not the last line, so not a torn write); refusing to start. "
                            + "Repair or move the file away.");
                }
                LOG.log(Level.WARNING, "Ignoring incomplete last line {0} of {1} (a write cut short by a crash)",
                        lineNumber, file);
                return start;
            }
            if (record != null) {
                sink.accept(record);
            }
            start = end + 1;
        }
        return bytes.length;
    }

    private static EffectRecord parse(String line) {
        if (line.isBlank()) {
            return null;
        }
        try {
            EffectRecord record = Json.MAPPER.readValue(line, EffectRecord.class);
            return record != null && record.isComplete() ? record : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean onlyBlankAfter(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (!Character.isWhitespace(bytes[i])) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }
}
