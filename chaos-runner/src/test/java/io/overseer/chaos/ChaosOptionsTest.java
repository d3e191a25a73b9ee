package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChaosOptionsTest {

    private static ChaosOptions parse(String... args) {
        return ChaosOptions.parse(args, Path.of("/tmp/root"));
    }

    @Test
    void defaultsAndTheShortPresetWhichAnyFlagOverrides() {
        ChaosOptions full = parse("--seed", "7");
        assertEquals(3000, full.orders());
        assertEquals(8, full.rate());
        assertEquals(Duration.ofSeconds(375), full.duration());
        assertEquals(2, full.instances());
        assertEquals(Duration.ofSeconds(180), full.quietPeriod());
        assertEquals(Path.of("/tmp/root/target/chaos/run-7"), full.out());
        assertFalse(full.help());
        ChaosOptions preset = parse("--orders", "500", "--short", "--quiet-period=60");
        assertEquals(500, preset.orders());
        assertEquals(2, preset.faultsPerKind());
        assertEquals(Duration.ofSeconds(60), preset.quietPeriod());
        assertEquals(1000, parse("--short").orders());
    }

    @Test
    void badInputIsAUsageErrorThatNamesIt() {
        assertTrue(assertThrows(ChaosOptions.UsageException.class, () -> parse("--oders", "5")).getMessage()
                .contains("--oders"));
        assertTrue(assertThrows(ChaosOptions.UsageException.class, () -> parse("--orders", "many")).getMessage()
                .contains("many"));
        assertThrows(ChaosOptions.UsageException.class, () -> parse("--orders"));
        assertThrows(ChaosOptions.UsageException.class, () -> parse("stray"));
        assertEquals("--instances must be 1..16",
                assertThrows(ChaosOptions.UsageException.class, () -> parse("--instances", "17")).getMessage());
        assertThrows(ChaosOptions.UsageException.class, () -> parse("--rate", "0"));
    }

    @Test
    void helpAndTheCheckedInTextThatChaosPrintsWithoutABuild() throws IOException {
        assertTrue(parse("--help").help());
        assertTrue(parse("-h").help());
        String usage = ChaosOptions.usage();
        for (String flag : new String[] {"--orders", "--faults-per-kind", "--partitions", "--short", "--help"}) {
            assertTrue(usage.contains(flag), flag);
        }
        assertEquals(usage, Files.readString(Path.of("usage.txt")),
                "chaos-runner/usage.txt is stale: write the output of ./chaos's Chaos --help into it");
    }
}
