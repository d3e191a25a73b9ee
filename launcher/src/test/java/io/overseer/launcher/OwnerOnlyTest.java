package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnerOnlyTest {

    @Test
    void aLoggedCommandLineShowsNoPassword() {
        String line = OwnerOnly.redacted(List.of("artemis", "create", "--user", "app", "--password", "s3cret",
                "-Dbroker.password=s3cret", "-Dother=1", "--http-port", "8161"));
        assertFalse(line.contains("s3cret"), line);
        assertEquals("artemis create --user app --password **** -Dbroker.password=**** -Dother=1 --http-port 8161", line);
    }

    @Test
    void writtenFilesAndDirectoriesAreTheOwnersOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("post-boot.asadmin");
        Files.writeString(file, "old");
        OwnerOnly.write(file, "password=x");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("password=x", Files.readString(file));
        Path data = OwnerOnly.directory(dir.resolve("data"));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(data)));
    }
}
