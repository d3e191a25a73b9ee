package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overseer.bench.ServerThreads.Group;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ServerThreadsTest {

    /** Names as /proc/PID/task/TID/comm held them on a running Payara Micro (cut to 15), and WildFly's defaults. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "http-thread-poo|REQUEST",
            "http-listener-k|REQUEST",
            "default task-12|REQUEST",
            "default I/O-1|REQUEST",
            "Thread-9 (activ|MDB",
            "Thread-12 (acti|MDB",
            "Thread-123456 (|MDB",
            "Thread-3 (Activ|MDB",
            "overseer-courie|COURIER",
            "concurrent/__de|AGENT",
            "EE-ManagedThrea|AGENT",
            "HttpClient-1-Se|AGENT",
            "GC Thread#0|GC",
            "G1 Conc#0|GC",
            "G1 Refine#1|GC",
            "G1 Main Marker|GC",
            "C1 CompilerThre|JIT",
            "C2 CompilerThre|JIT",
            "VM Thread|OTHER",
            "__ejb-thread-po|OTHER",
            "Thread-7|OTHER",
            "payara-executor|OTHER",
            "health-database|OTHER"})
    void aThreadIsGroupedByItsCutName(String comm, Group group) {
        assertEquals(group, ServerThreads.classify(comm));
    }

    @Test
    void aGroupCountsWhatItsThreadsUsedBetweenTwoReadingsANewThreadFromZero() {
        Map<Long, ProcessCpu.ThreadTicks> a = Map.of(
                1L, new ProcessCpu.ThreadTicks("http-thread-poo", 10),
                2L, new ProcessCpu.ThreadTicks("http-thread-poo", 5),
                3L, new ProcessCpu.ThreadTicks("Thread-4 (activ", 7));
        Map<Long, ProcessCpu.ThreadTicks> b = Map.of(
                1L, new ProcessCpu.ThreadTicks("http-thread-poo", 30),
                2L, new ProcessCpu.ThreadTicks("http-thread-poo", 6),
                4L, new ProcessCpu.ThreadTicks("overseer-courie", 9)); // 3 ended, 4 is new
        Map<Group, Long> ticks = ServerThreads.ticksBetween(a, b);
        assertEquals(21, ticks.get(Group.REQUEST));
        assertEquals(0, ticks.get(Group.MDB));
        assertEquals(9, ticks.get(Group.COURIER));
        assertEquals(0, ticks.get(Group.OTHER));
    }
}
