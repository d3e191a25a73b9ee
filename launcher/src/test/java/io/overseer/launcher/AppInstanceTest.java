package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AppInstanceTest {

    private static final Path DATA = Path.of("/tmp/ovs");

    private static List<AppInstance> plan(String... args) {
        return AppInstance.plan(LauncherOptions.parse(args, Map.of("OVERSEER_DATA_DIR", DATA.toString())));
    }

    @Test
    void oneInstanceIsNamedAndPlacedAsTheSingleServerAlwaysWas() {
        assertEquals(List.of(new AppInstance(1, "payara", 8080, DATA.resolve("payara"), DATA.resolve("logs/payara.log"))),
                plan());
    }

    @Test
    void severalTakeTheNextPortsAndDirectoriesOfTheirOwn() {
        assertEquals(List.of(
                        new AppInstance(1, "payara", 9000, DATA.resolve("payara"), DATA.resolve("logs/payara.log")),
                        new AppInstance(2, "payara-2", 9001, DATA.resolve("payara-2"), DATA.resolve("logs/payara-2.log")),
                        new AppInstance(3, "payara-3", 9002, DATA.resolve("payara-3"), DATA.resolve("logs/payara-3.log"))),
                plan("--instances", "3", "--http-port", "9000"));
    }

    @Test
    void theMostInstancesNeverShareANamePortDirectoryOrLog() {
        List<AppInstance> all = plan("--instances", Integer.toString(AppInstance.MAX), "--http-port", "9000");
        assertEquals(AppInstance.MAX, all.size());
        assertEquals(AppInstance.MAX, distinct(all.stream().map(AppInstance::name).toList()));
        assertEquals(AppInstance.MAX, distinct(all.stream().map(AppInstance::httpPort).toList()));
        assertEquals(AppInstance.MAX, distinct(all.stream().map(AppInstance::workDir).toList()));
        assertEquals(AppInstance.MAX, distinct(all.stream().map(AppInstance::logFile).toList()));
        assertEquals(9000 + AppInstance.MAX - 1, all.get(AppInstance.MAX - 1).httpPort());
    }

    @Test
    void leftoversAreLookedForInEveryDirectoryAnyRunMayHaveUsed() {
        List<Path> dirs = AppInstance.allWorkDirs(DATA);
        assertEquals(AppInstance.MAX, distinct(dirs));
        assertEquals(plan("--instances", Integer.toString(AppInstance.MAX), "--http-port", "9000").stream()
                        .map(AppInstance::workDir).toList(),
                dirs);
    }

    @Test
    void theApplicationKeepsItsOwnIdUnlessOneIsConfigured() {
        Map<String, String> shared = Map.of("overseer.scheduler.complete-by", "PT5S");
        for (AppInstance instance : plan("--instances", "3")) {
            assertEquals(shared, instance.appProperties(shared), instance.name());
        }
    }

    @Test
    void aConfiguredIdIsMadeOneOfEachInstance() {
        List<AppInstance> instances = plan("--instances", "3", "-D", "overseer.instance-id=node", "-Da=1");
        Map<String, String> shared = Map.of("overseer.instance-id", "node", "a", "1");
        assertEquals(List.of("node", "node-2", "node-3"),
                instances.stream().map(i -> i.appProperties(shared).get("overseer.instance-id")).toList());
        assertEquals("1", instances.get(2).appProperties(shared).get("a"));
    }

    @Test
    void numbersOutsideTheRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> AppInstance.of(0, 8080, DATA));
        assertThrows(IllegalArgumentException.class, () -> AppInstance.of(AppInstance.MAX + 1, 8080, DATA));
    }

    private static int distinct(List<?> values) {
        Set<Object> set = new HashSet<>(values);
        return set.size();
    }
}
