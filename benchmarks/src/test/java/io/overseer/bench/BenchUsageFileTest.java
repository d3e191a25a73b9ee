package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** ./bench --help prints benchmarks/usage.txt without building the runner: it must be today's text. */
class BenchUsageFileTest {

    @Test
    void theCheckedInHelpIsTheRunnersOwn() throws IOException {
        assertEquals(BenchOptions.usage(), Files.readString(Path.of("usage.txt")),
                "benchmarks/usage.txt is stale: write the output of the runner's Bench --help (BenchOptions.usage()) into it");
    }
}
