package io.overseer.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CliTest {

    private static final Set<String> KNOWN = Set.of("jdbc", "tasks", "reset");

    @Test
    void knownKeysTakeAValueAndFlagsNone() {
        Cli cli = Cli.parse(new String[] {"--jdbc", "jdbc:postgresql://x/y", "--reset", "--tasks", "40"}, KNOWN);
        assertEquals("jdbc:postgresql://x/y", cli.required("jdbc"));
        assertEquals(40, cli.getInt("tasks", 1));
        assertTrue(cli.flag("reset"));
        Cli none = Cli.parse(new String[0], KNOWN);
        assertFalse(none.flag("reset"));
        assertEquals(7, none.getInt("tasks", 7));
        assertEquals("d", none.get("jdbc", "d"));
    }

    @Test
    void anUnknownKeyAMissingValueOrABadNumberIsRefused() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> Cli.parse(new String[] {"--taks", "4"}, KNOWN));
        assertTrue(unknown.getMessage().contains("--taks") && unknown.getMessage().contains("known: --jdbc"),
                unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Cli.parse(new String[] {"--tasks"}, KNOWN));
        assertThrows(IllegalArgumentException.class, () -> Cli.parse(new String[] {"stray"}, KNOWN));
        assertThrows(IllegalArgumentException.class, () -> Cli.parse(new String[] {"--tasks", "x"}, KNOWN)
                .getInt("tasks", 1));
        assertThrows(IllegalArgumentException.class, () -> Cli.parse(new String[0], KNOWN).required("jdbc"));
    }
}
