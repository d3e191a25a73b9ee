package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Files and directories only their owner may read, for what holds a password; and command lines with the
 * passwords taken out, for logs. Other local users may read neither (SECURITY.md, "Local users").
 */
public final class OwnerOnly {

    private static final Pattern PASSWORD_PROPERTY = Pattern.compile("(?i)(-D[^=]*password[^=]*=).*");

    private OwnerOnly() {
    }

    /** Writes {@code text} into a file created readable and writable by its owner only (replacing any). */
    public static void write(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, text);
    }

    /** Makes an existing file readable and writable by its owner only. */
    static void restrict(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    /** Creates the directory if missing and closes it to everyone but its owner. */
    public static Path directory(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        return dir;
    }

    /**
     * The command as a log may show it: the value after a {@code --password}-like flag, and of a
     * {@code -D…password…=} property, replaced by {@code ****}.
     */
    static String redacted(List<String> command) {
        StringBuilder line = new StringBuilder();
        boolean hideNext = false;
        for (String arg : command) {
            String shown = arg;
            if (hideNext) {
                shown = "****";
            } else if (PASSWORD_PROPERTY.matcher(arg).matches()) {
                shown = arg.substring(0, arg.indexOf('=') + 1) + "****";
            }
            hideNext = arg.startsWith("--") && arg.toLowerCase(java.util.Locale.ROOT).contains("password") && !arg.contains("=");
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(shown);
        }
        return line.toString();
    }
}
