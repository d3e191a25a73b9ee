package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
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
    void bothJitsMeansTwoRunsC1ThenTieredEachWithTheOtherOptions() {
        String[] args = {"--quick", "--server-jit", "both", "--clients", "8"};
        List<BenchOptions> runs = BenchOptions.jitRuns(args, ROOT);
        assertEquals(List.of("c1", "tiered"), runs.stream().map(BenchOptions::serverJit).toList());
        runs.forEach(o -> assertEquals(8, o.clients()));
        assertEquals(List.of("tiered"), BenchOptions.jitRuns(new String[] {"--server-jit", "tiered"}, ROOT).stream()
                .map(BenchOptions::serverJit).toList());
        assertEquals("c1", BenchOptions.jitRuns(new String[0], ROOT).get(0).serverJit());
        BenchOptions.UsageException e = assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--server-jit", "c2"}, ROOT));
        assertTrue(e.getMessage().contains("c1, tiered or both"), e.getMessage());
    }

    @Test
    void quickRunsAreSmallAndNeverTouchBenchmarksMd() {
        BenchOptions o = BenchOptions.parse(new String[] {"--quick", "--orders", "500"}, ROOT);
        assertTrue(o.quick());
        assertEquals(500, o.noopOrders());
        assertEquals(150, o.e2eOrders());
        assertEquals(ROOT.resolve("target/bench/quick-report.md"), o.report());
        // A size given beside --quick wins wherever it stands, and --key=value is the same as --key value.
        BenchOptions after = BenchOptions.parse(new String[] {"--e2e-orders=40", "--quick", "--peer-repeat", "2"}, ROOT);
        assertEquals(40, after.e2eOrders());
        assertEquals(2, after.peerRepeat());
        assertEquals(300, after.noopOrders());
        assertEquals(Path.of("/tmp/r.md"), BenchOptions.parse(new String[] {"--quick", "--report", "/tmp/r.md"}, ROOT).report());
    }

    @Test
    void helpIsAskedForWithEitherSpellingAndNamesEveryOption() {
        assertFalse(BenchOptions.parse(new String[0], ROOT).help());
        assertTrue(BenchOptions.parse(new String[] {"--help"}, ROOT).help());
        assertTrue(BenchOptions.jitRuns(new String[] {"--quick", "-h"}, ROOT).get(0).help());
        String usage = BenchOptions.usage();
        for (String flag : new String[] {"--quick", "--scale-finished", "--server-jit", "--app-property", "--tracing-ratio",
                "--bulk-load-rate", "--attributes", "--report", "--help"}) {
            assertTrue(usage.contains(flag), flag);
        }
    }

    @Test
    void tracingIsOffUnlessAskedForAndThenNeedsTwoMorePorts() {
        BenchOptions off = BenchOptions.parse(new String[0], ROOT);
        assertEquals(false, off.traced());
        assertEquals(5, off.allPorts().size());
        BenchOptions on = BenchOptions.parse(new String[] {"--tracing"}, ROOT);
        assertEquals(1.0, on.tracing());
        assertTrue(on.allPorts().containsAll(List.of(18385, 18386)), on.allPorts().toString());
        assertEquals(0.1, BenchOptions.parse(new String[] {"--tracing-ratio", "0.1"}, ROOT).tracing());
        assertEquals(0.1, BenchOptions.parse(new String[] {"--tracing-ratio", "0.1", "--tracing"}, ROOT).tracing());
        for (String bad : new String[] {"0", "1.5", "-1", "ten"}) {
            assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse(new String[] {"--tracing-ratio", bad}, ROOT), bad);
        }
    }

    @Test
    void applicationPropertiesAreKeptInOrderAndNoneByDefault() {
        assertEquals(List.of(), BenchOptions.parse(new String[0], ROOT).appProperties());
        BenchOptions o = BenchOptions.parse(new String[] {"--app-property", "overseer.submission.concurrency=1000",
                "--app-property", "overseer.messaging.senders=2"}, ROOT);
        assertEquals(List.of("overseer.submission.concurrency=1000", "overseer.messaging.senders=2"), o.appProperties());
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
        assertEquals("unknown option: --order (did you mean --orders?)", assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--order", "5"}, ROOT)).getMessage());
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"stray"}, ROOT)).getMessage().contains("stray"));
        assertEquals("--orders needs a value", assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--orders", "--quick"}, ROOT)).getMessage());
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--app-property", "concurrency=8"}, ROOT)).getMessage()
                .startsWith("--app-property"));
    }

    @Test
    void theBulkPhaseIsOptInAndAnyOfItsOptionsAsksForIt() {
        BenchOptions quick = BenchOptions.parse(new String[] {"--quick"}, ROOT);
        assertEquals(false, quick.bulk()); // CI's quick run does not pay for it
        assertEquals(1000, quick.bulkOrders());
        assertEquals(20, quick.bulkSeconds());
        BenchOptions full = BenchOptions.parse(new String[] {"--bulk"}, ROOT);
        assertTrue(full.bulk());
        assertEquals(10_000, full.bulkOrders());
        assertEquals(60, full.bulkSeconds());
        assertEquals(0, full.bulkRate()); // none sent: the server's overseer.bulk.rate
        assertEquals(0.0, full.bulkLoadRate()); // the REST latency phase's rate
        BenchOptions sized = BenchOptions.parse(new String[] {"--bulk-orders", "2000"}, ROOT);
        assertTrue(sized.bulk());
        assertEquals(2000, sized.bulkOrders());
        assertTrue(BenchOptions.parse(new String[] {"--bulk-seconds", "30"}, ROOT).bulk());
        assertEquals(200, BenchOptions.parse(new String[] {"--bulk-rate", "200"}, ROOT).bulkRate());
        assertEquals(12.5, BenchOptions.parse(new String[] {"--bulk-load-rate", "12.5"}, ROOT).bulkLoadRate());
    }

    @Test
    void bulkSizesTheServerWouldRefuseAreRefusedBeforeTheStart() {
        for (String[] bad : new String[][] {{"--bulk-rate", "1001"}, {"--bulk-rate", "0"}, {"--bulk-orders", "100001"},
                {"--bulk-load-rate", "0"}, {"--bulk-load-rate", "fast"}, {"--bulk-seconds", "-1"}}) {
            String m = assertThrows(BenchOptions.UsageException.class, () -> BenchOptions.parse(bad, ROOT)).getMessage();
            assertTrue(m.startsWith(bad[0]), m);
        }
    }

    @Test
    void runtimeDefaultsToPayaraMicroAndTheHelpSaysSo() {
        BenchOptions o = BenchOptions.parse(new String[] {"--quick"}, ROOT);
        assertEquals(BenchRuntime.PAYARA_MICRO, o.runtime());
        assertEquals(o.ports(), o.allPorts());
        String usage = BenchOptions.usage();
        assertTrue(usage.matches("(?s).*--runtime=R +" + Pattern.quote(BenchRuntime.ids()) + ": the server.*"), usage);
        assertTrue(usage.contains("(default payara-micro"), usage);
    }

    @Test
    void earRuntimesAreParsedWithTheirExtraPortsPlacedAsTheLauncherPlacesThem() {
        BenchOptions server = BenchOptions.parse(new String[] {"--quick", "--runtime", "payara-server"}, ROOT);
        assertEquals(BenchRuntime.PAYARA_SERVER, server.runtime());
        // PayaraServerNode.domainPorts(18380): port base 18300, admin + 48, JMX + 86
        assertEquals(18348, server.runtime().extraPorts(18380).get("admin"));
        assertEquals(List.of(18337, 18338, 18339, 18348, 18349, 18359, 18366, 18376, 18386),
                server.allPorts().subList(5, server.allPorts().size()));
        BenchOptions wildfly = BenchOptions.parse(new String[] {"--runtime", "WildFly", "--port-base", "20000"}, ROOT);
        assertEquals(BenchRuntime.WILDFLY, wildfly.runtime());
        // WildFlyNode.serverPorts(20000): offset 11920
        assertEquals(List.of(15448, 20363, 21910), wildfly.allPorts().subList(5, 8));
    }

    @Test
    void aPortBaseThatPutsTheRuntimesPortsOutOfRangeIsRefused() {
        String lowWildFly = assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--runtime", "wildfly", "--port-base", "5000"}, ROOT)).getMessage();
        assertTrue(lowWildFly.contains("IIOP port on 448"), lowWildFly);
        assertTrue(lowWildFly.contains("choose another --port-base"), lowWildFly);
        String highWildFly = assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--port-base", "64000", "--runtime", "wildfly"}, ROOT)).getMessage();
        assertTrue(highWildFly.contains("management port on 65910"), highWildFly);
        String lowServer = assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--runtime", "payara-server", "--port-base", "1060"}, ROOT)).getMessage();
        assertTrue(lowServer.contains("IIOP port on 1017"), lowServer);
        // Payara Micro places no extra port: the same port base is fine for it
        assertEquals(5000, BenchOptions.parse(new String[] {"--port-base", "5000"}, ROOT).portBase());
    }

    @Test
    void anUnknownRuntimeIsRefusedNamingTheChoices() {
        String m = assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--runtime", "tomee"}, ROOT)).getMessage();
        assertTrue(m.startsWith("--runtime must be one of payara-micro|payara-server|wildfly"), m);
        assertTrue(assertThrows(BenchOptions.UsageException.class,
                () -> BenchOptions.parse(new String[] {"--runtime"}, ROOT)).getMessage().contains("needs a value"));
    }

    @Test
    void theServersStartIsReadFromTheLaunchersReadyLine() {
        String log = "19:40:01 INFO PostgreSQL ready in 1300 ms\n"
                + "19:40:58 INFO WildFly ready at http://127.0.0.1:18380 (pid 4242) in 41234 ms\n";
        assertEquals(41234, BenchStack.readyMillis(log, BenchRuntime.WILDFLY));
        assertEquals(-1, BenchStack.readyMillis(log, BenchRuntime.PAYARA_SERVER));
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
