package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --server-jit: parsing, the default, and what each mode puts on every runtime's java command line. */
class ServerJitOptionTest {

    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
    private static final AppServerConfig CONFIG = new AppServerConfig(18080, "jdbc:postgresql://127.0.0.1:1/d", "u",
            "p", "127.0.0.1", 61616, "app", "secret", null, Map.of(), null);

    @Test
    void c1OnlyUnlessAskedOtherwise() {
        assertEquals(ServerJit.C1, LauncherOptions.parse(new String[0], Map.of()).serverJit());
        assertEquals(ServerJit.C1, CONFIG.jit(), "a config built without one runs C1 only, as the launcher does");
    }

    @Test
    void theFlagAndTheEnvironmentChooseTieredAndAFlagWins() {
        assertEquals(ServerJit.TIERED, LauncherOptions.parse(new String[] {"--server-jit", "tiered"}, Map.of()).serverJit());
        assertEquals(ServerJit.TIERED, LauncherOptions.parse(new String[0], Map.of("OVERSEER_SERVER_JIT", "Tiered"))
                .serverJit());
        assertEquals(ServerJit.C1, LauncherOptions.parse(new String[] {"--server-jit=c1"},
                Map.of("OVERSEER_SERVER_JIT", "tiered")).serverJit());
    }

    @Test
    void anUnknownModeIsRefusedWithTheChoices() {
        String message = assertThrows(UsageException.class,
                () -> LauncherOptions.parse(new String[] {"--server-jit", "c2"}, Map.of())).getMessage();
        assertTrue(message.contains("c1|tiered") && message.contains("'c2'"), message);
    }

    @Test
    void everyRuntimeStartsItsJvmWithTheChosenCompilers() {
        Path dir = Path.of("/tmp/overseer-jit-test");
        for (ServerJit jit : ServerJit.values()) {
            AppServerConfig config = CONFIG.withJit(jit).withAppProperties(Map.of("overseer.x", "1"));
            assertEquals(jit, config.jit(), "the other with- methods keep it");
            List<String> micro = new PayaraMicroNode(StackLayout.fromDirectory(dir), "payara", dir, dir.resolve("l"), null)
                    .command(config, dir, dir, dir, dir);
            List<String> server = PayaraServerNode.command(config, List.of("java", "-Xmx1g", PayaraDomain.MAIN_CLASS));
            List<String> wildfly = new WildFlyNode(StackLayout.fromDirectory(dir), "wildfly", dir, dir.resolve("l"), null)
                    .command(dir, dir, config);
            for (List<String> command : List.of(micro, server, wildfly)) {
                assertEquals(jit == ServerJit.C1, command.contains(C1_ONLY), jit + ": " + command);
                assertFalse(command.indexOf(C1_ONLY) > command.indexOf("-jar") && command.contains("-jar"),
                        "a JVM option, before the main jar: " + command);
            }
        }
    }
}
