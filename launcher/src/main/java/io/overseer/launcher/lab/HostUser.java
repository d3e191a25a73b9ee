package io.overseer.launcher.lab;

import com.sun.security.auth.module.UnixSystem;
import io.overseer.launcher.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operating-system user a replicated database node runs as. PostgreSQL refuses to run as root: a
 * launcher running as root runs Patroni (and so PostgreSQL) as Debian's {@code postgres} user through
 * {@code setpriv}, gives that user the node's directories, and lets it through the data directory's own
 * (owner-only) directory by group, search only: {@code rwx--x---} with the postgres group, so it can reach
 * its node's directory by name and read nothing else there. Any other user runs the nodes as itself.
 */
final class HostUser {

    static final String POSTGRES = "postgres";
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private final String name; // null: the launcher's own user
    private final UserPrincipal owner;
    private final GroupPrincipal group;

    private HostUser(String name, UserPrincipal owner, GroupPrincipal group) {
        this.name = name;
        this.owner = owner;
        this.group = group;
    }

    /** Debian's postgres user when running as root; the launcher's own user otherwise. */
    static HostUser forPostgres() {
        if (new UnixSystem().getUid() != 0) {
            return new HostUser(null, null, null);
        }
        UserPrincipalLookupService lookup = Path.of("/").getFileSystem().getUserPrincipalLookupService();
        try {
            return new HostUser(POSTGRES, lookup.lookupPrincipalByName(POSTGRES), lookup.lookupPrincipalByGroupName(POSTGRES));
        } catch (IOException e) {
            throw new IllegalStateException("the launcher runs as root, and PostgreSQL refuses to: it runs the database"
                    + " nodes as the user '" + POSTGRES + "', which does not exist here (Debian's postgresql-common"
                    + " creates it: apt-get install postgresql-15)", e);
        }
    }

    /** The command prefix that runs a program as this user (empty for the launcher's own user). */
    List<String> command() {
        if (name == null) {
            return List.of();
        }
        if (!Files.isExecutable(SETPRIV)) {
            throw new IllegalStateException(SETPRIV + " is missing (Debian's util-linux): it runs PostgreSQL as "
                    + name + " when the launcher runs as root");
        }
        return List.of(SETPRIV.toString(), "--reuid=" + name, "--regid=" + name, "--init-groups", "--");
    }

    /** HOME for the program: Patroni and psql look there; root's is closed to the postgres user. */
    String home() {
        return name == null ? System.getProperty("user.home") : "/var/lib/postgresql";
    }

    /**
     * Creates {@code dir} if missing, closed to everyone but this user, and owned by it; its parent
     * directories up to {@code top} must let the user through ({@link #letThrough}).
     */
    void ownedDirectory(Path dir) throws IOException {
        OwnerOnly.directory(dir);
        own(dir);
    }

    /** Gives an existing file or directory to this user (nothing to do for the launcher's own user). */
    void own(Path path) throws IOException {
        if (owner != null) {
            PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
            view.setOwner(owner);
            view.setGroup(group);
        }
    }

    /**
     * Lets this user through {@code dir} (search only) by its group, and checks that it can reach {@code dir}
     * at all: every directory above must be searchable by others, or the nodes could not start, late and
     * obscurely ("Permission denied" in Patroni's log).
     */
    void letThrough(Path dir) throws IOException {
        if (owner == null) {
            return;
        }
        PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
        view.setGroup(group);
        Set<PosixFilePermission> perms = EnumSet.copyOf(Files.getPosixFilePermissions(dir));
        perms.add(PosixFilePermission.GROUP_EXECUTE);
        Files.setPosixFilePermissions(dir, perms);
        for (Path up = dir.toAbsolutePath().getParent(); up != null; up = up.getParent()) {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(up);
            boolean byGroup = p.contains(PosixFilePermission.GROUP_EXECUTE)
                    && group.equals(Files.readAttributes(up, java.nio.file.attribute.PosixFileAttributes.class).group());
            if (!p.contains(PosixFilePermission.OTHERS_EXECUTE) && !byGroup) {
                throw new IllegalStateException("the database nodes run as '" + name + "' (PostgreSQL refuses root),"
                        + " which cannot pass through " + up + " (" + PosixFilePermissions.toString(p) + "): choose a"
                        + " --data-dir whose parent directories others may search (o+x)");
            }
        }
    }
}
