package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackStagingTest {

    private static final String POST_BOOT = "deploy ${RAR}\n";

    @TempDir
    Path dir;
    private Path built;
    private Path agent;

    /** A built stack as the launcher's pom lays it out, with archives that hold just enough to check. */
    @BeforeEach
    void builtStack() throws IOException {
        built = Files.createDirectories(dir.resolve("built"));
        Files.createDirectories(built.resolve("config/wildfly"));
        Files.writeString(built.resolve("config/wildfly/configure.cli"), "# cli\n");
        Files.writeString(built.resolve("config/broker.xml"), "<addresses>\n</addresses>\n");
        Files.writeString(built.resolve("config/post-boot.asadmin"), POST_BOOT);
        Files.writeString(built.resolve("config/http-open.asadmin"), "set x\n");
        Files.createDirectories(built.resolve("wildfly-39.0.1.Final"));
        Path ejb = archive(dir.resolve("overseer-ejb.jar"), Map.of("io/overseer/agent/RemoteService.class", "spi"));
        try (FileSystem ear = zip(archive(built.resolve("overseer.ear"), Map.of("lib/a.jar", "lib")))) {
            Files.copy(ejb, ear.getPath("/overseer-ejb.jar"));
        }
        archive(built.resolve("overseer.war"), Map.of("WEB-INF/lib/a.jar", "lib"));
        agent = archive(dir.resolve("agent.jar"), Map.of("io/overseer/bench/agent/NoopAgent.class", "noop",
                "META-INF/beans.xml", "<beans/>"));
    }

    @Test
    void theEarsEjbModuleGetsTheAgentAndNothingPayaraMicroOnly() throws IOException {
        Path stack = StackStaging.stage(BenchRuntime.WILDFLY, built, dir.resolve("stack"), built.resolve("overseer.ear"), agent);
        try (FileSystem ear = zip(stack.resolve("overseer.ear"))) {
            assertFalse(Files.exists(ear.getPath("/lib/overseer-bench-noop-agent.jar")));
            Path ejb = Files.copy(ear.getPath("/overseer-ejb.jar"), dir.resolve("staged-ejb.jar"));
            try (FileSystem module = zip(ejb)) {
                assertEquals("noop", Files.readString(module.getPath("/io/overseer/bench/agent/NoopAgent.class")));
                assertTrue(Files.exists(module.getPath("/io/overseer/agent/RemoteService.class")));
                assertFalse(Files.exists(module.getPath("/META-INF/beans.xml")), "the module's own beans.xml stays");
            }
        }
        assertEquals(POST_BOOT, Files.readString(stack.resolve("config/post-boot.asadmin")));
        assertTrue(Files.exists(stack.resolve("config/wildfly/configure.cli")), "the jboss-cli scripts are reachable");
        assertTrue(Files.isSymbolicLink(stack.resolve("wildfly-39.0.1.Final")));
        assertFalse(Files.exists(stack.resolve("overseer-ejb.jar.tmp")));
        assertTrue(Files.readString(stack.resolve("config/broker.xml")).contains(StackStaging.CEILING_QUEUE_NAME));
    }

    @Test
    void payaraMicrosWarGetsTheAgentJarAndTheLoopbackLine() throws IOException {
        Path stack = StackStaging.stage(BenchRuntime.PAYARA_MICRO, built, dir.resolve("stack"), built.resolve("overseer.war"), agent);
        try (FileSystem war = zip(stack.resolve("overseer.war"))) {
            assertTrue(Files.exists(war.getPath("/WEB-INF/lib/overseer-bench-noop-agent.jar")));
        }
        String postBoot = Files.readString(stack.resolve("config/post-boot.asadmin"));
        assertTrue(postBoot.startsWith(POST_BOOT) && postBoot.contains("http-listener.address=127.0.0.1\n"), postBoot);
        assertFalse(postBoot.contains("hazelcast"), "no data grid to configure (the launcher's --nohazelcast)");
        assertFalse(Files.exists(stack.resolve("overseer.ear")));
    }

    private static Path archive(Path file, Map<String, String> entries) throws IOException {
        try (FileSystem zip = FileSystems.newFileSystem(URI.create("jar:" + file.toUri()), Map.of("create", "true"))) {
            for (var e : entries.entrySet()) {
                Path p = zip.getPath("/" + e.getKey());
                if (p.getParent() != null) {
                    Files.createDirectories(p.getParent());
                }
                Files.writeString(p, e.getValue());
            }
        }
        return file;
    }

    private static FileSystem zip(Path archive) throws IOException {
        return FileSystems.newFileSystem(URI.create("jar:" + archive.toUri()), Map.of());
    }
}
