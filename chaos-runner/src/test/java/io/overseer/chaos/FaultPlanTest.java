package io.overseer.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The schedule and the workload come from the seed alone; the CI preset injects every kind twice. */
class FaultPlanTest {

    private static List<PlannedFault> plan(long seed) {
        ChaosOptions o = ChaosOptions.parse(new String[] {"--short", "--seed", Long.toString(seed)}, Path.of("."));
        return FaultPlan.draw(new Random(o.seed()), o.faults(), o.faultsPerKind(), o.duration(), o.instances());
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndWorkload() {
        assertEquals(plan(7), plan(7));
        assertNotEquals(plan(7), plan(8));
        Random a = new Random(7);
        Random b = new Random(7);
        FaultPlan.draw(a, FaultKind.defaults(false, false), 2, Duration.ofMinutes(3), 2);
        FaultPlan.draw(b, FaultKind.defaults(false, false), 2, Duration.ofMinutes(3), 2);
        assertEquals(WorkloadPlan.draw(a, 500, "r"), WorkloadPlan.draw(b, 500, "r"));
    }

    @Test
    void theShortPresetInjectsEveryKindTwiceOneAfterTheOtherWithinTheWindow() {
        ChaosOptions o = ChaosOptions.parse(new String[] {"--short", "--seed", "1"}, Path.of("."));
        assertEquals(1000, o.orders());
        List<PlannedFault> faults = plan(1);
        Map<FaultKind, Long> byKind = faults.stream().collect(Collectors.groupingBy(PlannedFault::kind, Collectors.counting()));
        assertEquals(FaultKind.defaults(false, false).stream().collect(Collectors.toMap(Function.identity(), k -> 2L)), byKind);
        for (int i = 1; i < faults.size(); i++) {
            assertTrue(faults.get(i).at().compareTo(faults.get(i - 1).at()) > 0);
        }
        assertTrue(faults.get(faults.size() - 1).at().compareTo(o.duration()) < 0);
    }

    @Test
    void brokerPrimaryIsRefusedLoudlyWithoutTheReplicatedBroker() {
        ChaosOptions.UsageException e = assertThrows(ChaosOptions.UsageException.class,
                () -> ChaosOptions.parse(new String[] {"--faults", "app-kill,broker-primary"}, Path.of(".")));
        assertTrue(e.getMessage().contains("needs --broker-ha"), e.getMessage());
        assertTrue(ChaosOptions.parse(new String[0], Path.of(".")).faults().stream().noneMatch(FaultKind::needsBrokerHa));
    }

    @Test
    void theReplicatedBrokerAddsBrokerPrimaryToEveryKindAndToTheSchedule() {
        ChaosOptions o = ChaosOptions.parse(new String[] {"--broker-ha", "--short", "--seed", "5"}, Path.of("."));
        assertTrue(o.brokerHa());
        assertEquals(FaultKind.defaults(true, false), o.faults());
        assertTrue(o.faults().contains(FaultKind.BROKER_PRIMARY));
        List<PlannedFault> faults = FaultPlan.draw(new Random(o.seed()), o.faults(), o.faultsPerKind(), o.duration(),
                o.instances());
        assertEquals(2, faults.stream().filter(f -> f.kind() == FaultKind.BROKER_PRIMARY).count());
        // every kind but db-failover and the network's (which need --partitions)
        assertEquals(2L * java.util.Arrays.stream(FaultKind.values()).filter(k -> !k.needsDbHa() && !k.needsPartitions())
                .count(), faults.size());
        ChaosOptions only = ChaosOptions.parse(new String[] {"--broker-ha", "--faults", "broker-primary"}, Path.of("."));
        assertEquals(List.of(FaultKind.BROKER_PRIMARY), only.faults());
    }

    @Test
    void dbFailoverIsRefusedLoudlyWithoutTheReplicatedDatabase() {
        ChaosOptions.UsageException e = assertThrows(ChaosOptions.UsageException.class,
                () -> ChaosOptions.parse(new String[] {"--faults", "db-failover,app-kill"}, Path.of(".")));
        assertTrue(e.getMessage().contains("needs --db-ha"), e.getMessage());
        assertThrows(ChaosOptions.UsageException.class,
                () -> ChaosOptions.parse(new String[] {"--broker-ha", "--faults", "db-failover"}, Path.of(".")));
        assertTrue(ChaosOptions.parse(new String[] {"--broker-ha"}, Path.of(".")).faults().stream()
                .noneMatch(FaultKind::needsDbHa));
    }

    @Test
    void partitionsNeedTheReplicatedDatabaseAndAddTheNetworksFaults() {
        ChaosOptions.UsageException noDbHa = assertThrows(ChaosOptions.UsageException.class,
                () -> ChaosOptions.parse(new String[] {"--partitions"}, Path.of(".")));
        assertTrue(noDbHa.getMessage().contains("needs --db-ha"), noDbHa.getMessage());
        ChaosOptions.UsageException noPartitions = assertThrows(ChaosOptions.UsageException.class,
                () -> ChaosOptions.parse(new String[] {"--db-ha", "--faults", "app-db-cut"}, Path.of(".")));
        assertTrue(noPartitions.getMessage().contains("needs --partitions"), noPartitions.getMessage());
        assertThrows(ChaosOptions.UsageException.class, () -> ChaosOptions.parse(
                new String[] {"--db-ha", "--partitions", "--faults", "broker-pair-cut"}, Path.of(".")),
                "the pair's cut needs the pair");

        ChaosOptions o = ChaosOptions.parse(new String[] {"--db-ha", "--partitions", "--short", "--seed", "1"}, Path.of("."));
        assertTrue(o.partitions());
        assertEquals(List.of(FaultKind.APP_DB_CUT, FaultKind.APP_BROKER_CUT, FaultKind.APP_ISOLATED,
                FaultKind.DB_PRIMARY_ISOLATED), o.faults().stream().filter(FaultKind::needsPartitions).toList());
        List<PlannedFault> faults = FaultPlan.draw(new Random(o.seed()), o.faults(), o.faultsPerKind(), o.duration(),
                o.instances());
        // The isolated primary stays away longer than Patroni's ttl (10 s): it must be failed over.
        assertTrue(faults.stream().filter(f -> f.kind() == FaultKind.DB_PRIMARY_ISOLATED)
                .allMatch(f -> f.hold().toMillis() >= 15_000), faults.toString());
        assertTrue(ChaosOptions.parse(new String[] {"--db-ha", "--broker-ha", "--partitions"}, Path.of(".")).faults()
                .contains(FaultKind.BROKER_PAIR_CUT));
        assertTrue(ChaosOptions.parse(new String[] {"--db-ha"}, Path.of(".")).faults().stream()
                .noneMatch(FaultKind::needsPartitions), "no partitions without --partitions");
    }

    @Test
    void theReplicatedDatabaseAddsDbFailoverToEveryKindAndToTheSchedule() {
        ChaosOptions o = ChaosOptions.parse(new String[] {"--db-ha", "--short", "--seed", "1"}, Path.of("."));
        assertTrue(o.dbHa());
        assertEquals(FaultKind.defaults(false, true), o.faults());
        assertTrue(o.faults().contains(FaultKind.DB_FAILOVER));
        assertTrue(o.faults().contains(FaultKind.DB_KILL)); // still there: the primary's PostgreSQL only
        assertTrue(o.faults().stream().noneMatch(FaultKind::needsBrokerHa));
        List<PlannedFault> faults = FaultPlan.draw(new Random(o.seed()), o.faults(), o.faultsPerKind(), o.duration(),
                o.instances());
        assertEquals(2, faults.stream().filter(f -> f.kind() == FaultKind.DB_FAILOVER).count());
        // The host comes back when the watch restarts it: the fault has no hold of its own.
        assertTrue(faults.stream().filter(f -> f.kind() == FaultKind.DB_FAILOVER).allMatch(f -> f.hold().isZero()));
        ChaosOptions both = ChaosOptions.parse(new String[] {"--db-ha", "--broker-ha"}, Path.of("."));
        assertEquals(java.util.Arrays.stream(FaultKind.values()).filter(k -> !k.needsPartitions()).toList(), both.faults());
        assertEquals(List.of(FaultKind.values()), ChaosOptions.parse(new String[] {"--db-ha", "--broker-ha", "--partitions"},
                Path.of(".")).faults(), "every kind with everything replicated and separate");
        ChaosOptions two = ChaosOptions.parse(new String[] {"--db-ha", "--faults", "db-failover,app-kill"}, Path.of("."));
        assertEquals(List.of(FaultKind.DB_FAILOVER, FaultKind.APP_KILL), two.faults());
    }

    @Test
    void everyWorkloadHasMalformedMessagesAtFixedPlaces() {
        List<PlannedOrder> orders = WorkloadPlan.draw(new Random(3), 1000, "r");
        assertEquals(4, orders.stream().filter(PlannedOrder::bad).count());
        assertTrue(orders.stream().filter(PlannedOrder::bad).allMatch(o -> o.channel() == PlannedOrder.Channel.JMS));
    }
}
