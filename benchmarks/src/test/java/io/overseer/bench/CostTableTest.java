package io.overseer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CostTableTest {

    @Test
    void aPhaseRowShowsTheServerSplitByThreadGroupBesideTheProcesses() {
        Map<ServerThreads.Group, Double> groups = new EnumMap<>(ServerThreads.Group.class);
        double v = 1;
        for (ServerThreads.Group g : ServerThreads.Group.values()) {
            groups.put(g, v++); // request 1, mdb 2, courier 3, agent 4, gc 5, jit 6, other 7
        }
        CostMeter.Costs costs = new CostMeter.Costs(10, 100, new double[] {28, 8, 9, 10}, 12, 25, 3, 300, 2.5, groups);
        BenchRun run = new BenchRun();
        run.phases.put("e2e-rest", new PhaseResult("e2e-rest", "", 100, new Load.Result(100, 1, List.of(), 0, null),
                0, 10, 10, 30, 50, 90, 1.8, List.of(), 500, new double[] {0, 0, 0}, costs, PhaseData.Hops.NONE,
                Double.NaN, List.of()));

        String table = CostTable.render(run);

        assertTrue(table.contains("| e2e-rest (per order) | 10.0 | 28.0 | 6.0 | 1.0 | 2.0 | 3.0 | 4.0 | 5.0 | 7.0 | 8.0 | 9.0 | 10.0 | **55.0** |"),
                table);
        String header = table.lines().filter(l -> l.startsWith("| phase")).findFirst().orElseThrow();
        String rule = table.lines().filter(l -> l.startsWith("|---")).findFirst().orElseThrow();
        assertEquals(header.chars().filter(c -> c == '|').count(), rule.chars().filter(c -> c == '|').count());
    }

    @Test
    void noCountedPhaseNoTable() {
        assertEquals("", CostTable.render(new BenchRun()));
    }
}
