package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFileTest {

    @TempDir
    Path dir;

    @Test
    void aReportThatDoesNotExistIsCreatedWithItsDirectories() throws Exception {
        // The full run appends: that once failed with NoSuchFileException after the whole run.
        Path report = dir.resolve("new/sub/report.md");
        Bench.writeReport(report, "\n## Run 1\n", false);
        assertEquals("\n## Run 1\n", Files.readString(report));
    }

    @Test
    void aFullRunAppendsAndAQuickRunReplaces() throws Exception {
        Path report = dir.resolve("BENCHMARKS.md");
        Files.writeString(report, "# Benchmarks\n");
        Bench.writeReport(report, "\n## Run 1\n", false);
        assertEquals("# Benchmarks\n\n## Run 1\n", Files.readString(report));

        Bench.writeReport(report, "## Quick\n", true);
        assertEquals("## Quick\n", Files.readString(report));
    }
}
