package io.overseer.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A user of Payara's "file" realm, created by a post-boot command; its groups are the application's
 * roles (server-config maps groups to roles of the same name). The password travels in a file readable
 * by its owner only, never on a command line.
 */
public record RealmUser(String name, String password, List<String> groups) {

    /** Every role the application declares. */
    public static final List<String> ALL_ROLES = List.of("submitter", "viewer", "operator");

    /** Writes the password file into {@code dir} and returns the asadmin command that creates the user. */
    public String postBootCommand(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve("user-" + name + ".password");
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, "AS_ADMIN_USERPASSWORD=" + password + System.lineSeparator());
        return "create-file-user --passwordfile " + file + " --groups " + String.join(":", groups) + " " + name;
    }

    /**
     * Where in a server's work directory the password files go. Not "secrets": Payara's directory config
     * source looks for secrets/ in the server's working directory (a server's work directory is that) and,
     * finding it, would serve each password file as a MicroProfile Config property and watch the directory
     * with a task that blocks Payara's shutdown for the whole 5 s it waits for its executor.
     */
    public static final String PASSWORD_DIR = "realm-passwords";

    /** Every user's command, a line each; their password files go to {@code workDir}'s {@link #PASSWORD_DIR}. */
    public static String postBootCommands(List<RealmUser> users, Path workDir) throws IOException {
        StringBuilder commands = new StringBuilder();
        for (RealmUser user : users) {
            commands.append(user.postBootCommand(workDir.resolve(PASSWORD_DIR))).append(System.lineSeparator());
        }
        return commands.toString();
    }
}
