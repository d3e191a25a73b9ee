package io.overseer.launcher;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/** Reads the end of a (possibly large) log file, for error messages and the "server is live" check. */
public final class LogTail {

    private static final int MAX_BYTES = 256 * 1024;
    /** Payara colours its console log even into a file; escape codes only garble our messages. */
    private static final Pattern ANSI = Pattern.compile("\\x1B\\[[0-9;]*m");

    private LogTail() {
    }

    public static String lastLines(Path file, int lines) {
        List<String> all = Arrays.asList(ANSI.matcher(readEnd(file)).replaceAll("").split("\\R"));
        return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** Whether the last part of the file (since it could have many earlier runs appended) contains text. */
    static boolean endContains(Path file, String text) {
        return readEnd(file).contains(text);
    }

    /** Text written after {@code offset} (the file's size at start), i.e. only this run's lines. */
    static String since(Path file, long offset) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long len = raf.length();
            long from = Math.max(offset, len - MAX_BYTES);
            if (from >= len) {
                return "";
            }
            byte[] buf = new byte[(int) (len - from)];
            raf.seek(from);
            raf.readFully(buf);
            return new String(buf, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static String readEnd(Path file) {
        return since(file, 0);
    }
}
