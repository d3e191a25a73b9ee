package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    private static final Path ROOT = Path.of("/repo");

    @Test
    void fullRunDefaultsWriteToBenchmarksMd() {
        BenchOptions o = BenchOptions.parse(new String[0], ROOT);
        assertEquals(20_000, o.noopOrders());
        assertEquals(32, o.clients());
        assertEquals(List.of(10_000, 1_000_000), o.scaleFinished());
        assertEquals(ROOT.resolve("BENCHMARKS.md"), o.report());
        assertEquals(List.of(18380, 18381, 18382, 18383, 18384), o.ports());
    }

    @Test
    void quickRunsAreSmallAndNeverTouchBenchmarksMd() {
        BenchOptions o = BenchOptions.parse(new String[] {"--quick", "--orders", "500"}, ROOT);
        assertTrue(o.quick());
        assertEquals(500, o.noopOrders());
        assertEquals(150, o.e2eOrders());
        assertEquals(ROOT.resolve("target/bench/quick-report.md"), o.report());
    }

    @Test
    void badInputIsRefusedNamingTheOption() {
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--orders", "-3"}, ROOT)).getMessage().startsWith("--orders"));
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--orders"}, ROOT)).getMessage().contains("needs a value"));
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--port-base", "80"}, ROOT)).getMessage().startsWith("--port-base"));
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--scale-finished", "10"}, ROOT)).getMessage().contains("two sizes"));
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--fast"}, ROOT)).getMessage().contains("unknown option"));
    }

    @Test
    void percentilesAreNearestRank() {
        List<Double> v = List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0);
        assertEquals(5.0, Stats.percentile(v, 50));
        assertEquals(10.0, Stats.percentile(v, 99));
        assertEquals(1.0, Stats.percentile(v, 1));
        assertTrue(Double.isNaN(Stats.percentile(List.of(), 50)));
    }
}
