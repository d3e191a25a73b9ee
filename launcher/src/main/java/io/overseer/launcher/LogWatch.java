package io.overseer.launcher;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Watches what a log file gains from a point on for one marker, reading only the new bytes at each look
 * (a server's log reaches tens of megabytes in a long run). A marker split across two looks is still found:
 * the last characters of each look are kept.
 */
final class LogWatch {

    private final Path file;
    private final String marker;
    private long position;
    private String carry = "";

    private LogWatch(Path file, String marker, long position) {
        this.file = file;
        this.marker = marker;
        this.position = position;
    }

    /** From the file's current end (or its start, once it exists, if it does not exist yet). */
    static LogWatch fromEnd(Path file, String marker) {
        long size;
        try {
            size = Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            size = 0;
        }
        return new LogWatch(file, marker, size);
    }

    /** Whether the marker has been written since the watch began. */
    boolean seen() {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length < position) {
                position = 0; // rotated or truncated: read it from its start
            }
            if (length == position) {
                return false;
            }
            byte[] added = new byte[(int) Math.min(length - position, 8 * 1024 * 1024)];
            in.seek(position);
            in.readFully(added);
            position += added.length;
            String text = carry + new String(added, StandardCharsets.UTF_8);
            if (text.contains(marker)) {
                return true;
            }
            carry = text.substring(Math.max(0, text.length() - marker.length()));
            return false;
        } catch (IOException e) {
            return false; // not written yet
        }
    }
}
