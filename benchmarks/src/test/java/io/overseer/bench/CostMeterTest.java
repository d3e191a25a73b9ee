package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CostMeterTest {

    @Test
    void procStatIsReadAfterTheCommandNameWhateverItHolds() {
        // comm may hold spaces and parentheses; utime 14, stime 15, cutime 16, cstime 17.
        String stat = "4242 (post gres) (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 700 300 50 25 20 0 1 0 100 0";
        assertEquals(1000, ProcessCpu.parse(stat, false));
        assertEquals(1075, ProcessCpu.parse(stat, true));
    }

    @Test
    void thisJvmHasUsedSomeCpu() {
        assertTrue(ProcessCpu.ticks(ProcessHandle.current().pid(), false) >= 0);
        assertEquals(-1, ProcessCpu.ticks(Long.MAX_VALUE, false));
    }

    @Test
    void thisJvmsThreadsAreReadWithTheirNamesItsCompilerThreadsAmongThem() {
        Map<Long, ProcessCpu.ThreadTicks> threads = ProcessCpu.threadTicks(ProcessHandle.current().pid());
        assertTrue(threads.values().stream().anyMatch(t -> ServerThreads.classify(t.name()) == ServerThreads.Group.JIT),
                threads.toString());
        assertTrue(ProcessCpu.threadTicks(Long.MAX_VALUE).isEmpty());
    }

    @Test
    void aPhaseCostIsTheDifferenceDividedByOrdersMinusTheBenchOwnPolls() {
        long[] pids = {1, 2, 3, 4};
        CostMeter.Snapshot a = new CostMeter.Snapshot(0, pids, new long[] {100, 10, 20, 5}, 1000, 5000,
                Map.of("q1", 10L, "q2", 0L), new Simulator.Stats(0, 0, 0, 30, 60.0),
                Map.of(7L, jit(40), 8L, jit(5), 10L, thread("http-thread-poo", 50), 11L, thread("Thread-3 (activ", 10)));
        CostMeter.Snapshot b = new CostMeter.Snapshot(2_000_000_000L, pids, new long[] {300, 30, 40, 15}, 1105, 5905,
                Map.of("q1", 40L, "q2", 20L, "q3", 10L), new Simulator.Stats(0, 0, 0, 60, 120.0),
                Map.of(7L, jit(100), 9L, jit(20), 10L, thread("http-thread-poo", 90), 11L, thread("Thread-3 (activ", 20)));
                // thread 8 ended (its time is lost to JIT, kept in other), 9 is new
        CostMeter.Costs c = CostMeter.between(a, b, 10, 5);

        double tick = 1000.0 / ProcessCpu.TICKS_PER_SECOND;
        assertEquals(20 * tick, c.cpuMs()[0], 1e-9);
        assertEquals(2 * tick, c.cpuMs()[1], 1e-9);
        assertEquals(25 * tick, c.cpuTotalMs(), 1e-9); // (200 + 20 + 20 + 10) / 10
        assertEquals(10, c.commits(), 1e-9);      // (105 - 5 polls) / 10
        assertEquals(90, c.statements(), 1e-9);   // (905 - 5) / 10
        assertEquals(6, c.messages(), 1e-9);      // (30 + 20 + 10 on a new queue) / 10
        assertEquals(30, c.simulatorCalls());
        assertEquals(2, c.simulatorMsPerCall(), 1e-9);
        assertEquals(2, c.windowSeconds(), 1e-9);
        assertEquals(8 * tick, c.serverJitMs(), 1e-9);   // (60 + 20) / 10
        assertEquals(4 * tick, c.serverThreadMs(ServerThreads.Group.REQUEST), 1e-9);  // 40 / 10
        assertEquals(1 * tick, c.serverThreadMs(ServerThreads.Group.MDB), 1e-9);      // 10 / 10
        assertEquals(0, c.serverThreadMs(ServerThreads.Group.COURIER), 1e-9);
        assertEquals(7 * tick, c.serverThreadMs(ServerThreads.Group.OTHER), 1e-9);    // (200 - 80 - 40 - 10) / 10
        assertEquals(c.cpuMs()[0], c.serverThreadMs().values().stream().mapToDouble(Double::doubleValue).sum(), 1e-9);
    }

    @Test
    void commitsNotSettledAreNotCountedWhileStatementsAre() {
        long[] pids = {1, 2, 3, 4};
        CostMeter.Snapshot a = new CostMeter.Snapshot(0, pids, new long[] {0, 0, 0, 0}, 1000, 5000, Map.of(),
                new Simulator.Stats(0, 0, 0, 0, 0), Map.of());
        CostMeter.Snapshot unsettled = new CostMeter.Snapshot(1, pids, new long[] {0, 0, 0, 0}, -1, 5100, Map.of(),
                new Simulator.Stats(0, 0, 0, 0, 0), Map.of());
        CostMeter.Costs c = CostMeter.between(a, unsettled, 10, 0);
        assertTrue(Double.isNaN(c.commits()));
        assertEquals(10, c.statements(), 1e-9);
        assertTrue(c.summary("order").contains("commits not counted (--quick)"), c.summary("order"));
    }

    @Test
    void aRestartedProcessOrUnreadBrokerGivesNoFigureRatherThanAWrongOne() {
        CostMeter.Snapshot a = new CostMeter.Snapshot(0, new long[] {1, 2, 3, 4}, new long[] {100, 10, 20, 5}, 0, 0,
                Map.of(), new Simulator.Stats(0, 0, 0, 0, 0), Map.of(1L, jit(5)));
        CostMeter.Snapshot b = new CostMeter.Snapshot(1, new long[] {9, 2, 3, 4}, new long[] {50, 10, 20, 5}, 0, 0,
                Map.of("q1", 1L), new Simulator.Stats(0, 0, 0, 0, 0), Map.of(1L, jit(9)));
        CostMeter.Costs c = CostMeter.between(a, b, 1, 0);
        assertTrue(Double.isNaN(c.cpuMs()[0]));
        assertTrue(Double.isNaN(c.serverJitMs()), "a restarted server's compilers are not this window's");
        assertTrue(Double.isNaN(c.messages()));
        assertTrue(Double.isNaN(c.simulatorMsPerCall()));
    }

    @Test
    void brokerCountersKeepDurableApplicationQueuesOnly() throws Exception {
        String answer = """
                {"status":200,"value":{
                  "q=a":{"MessagesAdded":7,"Durable":true,"Address":"overseer.dispatch"},
                  "q=b":{"MessagesAdded":3,"Durable":false,"Address":"overseer.reply.x"},
                  "q=c":{"MessagesAdded":9,"Durable":true,"Address":"activemq.notifications"}}}""";
        assertEquals(Map.of("q=a", 7L), BrokerCounters.parse(new ObjectMapper().readTree(answer)));
    }

    private static ProcessCpu.ThreadTicks jit(long ticks) {
        return thread("C2 CompilerThre", ticks);
    }

    private static ProcessCpu.ThreadTicks thread(String name, long ticks) {
        return new ProcessCpu.ThreadTicks(name, ticks);
    }
}
