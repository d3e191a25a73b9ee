package io.overseer.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The fault schedule, drawn from the run's {@link Random}: each kind the given number of times, in a
 * shuffled order, one after the other in equal slots across the window (a fault starts somewhere in the
 * first quarter of its slot). One at a time on purpose: a history that breaks can then be read against
 * one cause, and the same seed gives the same schedule and the same choices.
 */
public final class FaultPlan {

    /** The forward operations of the default workflow, and their compensations (workflows.json). */
    static final List<String> FORWARD = List.of("reserve-inventory", "charge-payment", "arrange-shipping");
    static final List<String> COMPENSATIONS = List.of("release-inventory", "refund-payment", "cancel-shipment");
    /** Faults start after this much of the workload: the first orders show the stack works at all. */
    static final Duration WARM_UP = Duration.ofSeconds(10);

    private FaultPlan() {
    }

    public static List<PlannedFault> draw(Random random, List<FaultKind> kinds, int perKind, Duration window,
                                          int instances) {
        List<FaultKind> order = new ArrayList<>();
        for (FaultKind kind : kinds) {
            for (int i = 0; i < perKind; i++) {
                order.add(kind);
            }
        }
        Collections.shuffle(order, random);
        if (order.isEmpty()) {
            return List.of();
        }
        long usable = Math.max(1000, window.minus(WARM_UP).toMillis());
        long slot = usable / order.size();
        List<PlannedFault> faults = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            long at = WARM_UP.toMillis() + i * slot + (long) (random.nextDouble() * slot / 4);
            faults.add(one(i, order.get(i), Duration.ofMillis(at), random, instances));
        }
        return List.copyOf(faults);
    }

    private static PlannedFault one(int index, FaultKind kind, Duration at, Random random, int instances) {
        int instance = random.nextInt(instances);
        return switch (kind) {
            case APP_KILL, DB_FAILOVER -> new PlannedFault(index, kind, at, Duration.ZERO, instance, null, 0, 0);
            case APP_PAUSE, BROKER_PAUSE -> new PlannedFault(index, kind, at, millis(random, 2000, 7000), instance, null, 0, 0);
            case BROKER_KILL, BROKER_PRIMARY, DB_KILL -> new PlannedFault(index, kind, at, millis(random, 1000, 4000),
                    instance, null, 0, 0);
            case SIM_HANG -> new PlannedFault(index, kind, at, millis(random, 3000, 8000), instance,
                    anyOrOne(random), 0.3 + 0.4 * random.nextDouble(), 0);
            case SIM_LATENCY -> new PlannedFault(index, kind, at, millis(random, 3000, 8000), instance, "*", 1.0,
                    500 + random.nextInt(2500));
            case SIM_5XX -> new PlannedFault(index, kind, at, millis(random, 3000, 8000), instance, anyOrOne(random),
                    1.0, 0);
            // Mostly a forward step (the order is compensated); one time in four a compensation (it ends in
            // Error with an alert, if its order gets that far).
            case SIM_FATAL -> new PlannedFault(index, kind, at, millis(random, 3000, 8000), instance,
                    random.nextInt(4) == 0 ? pick(random, COMPENSATIONS) : pick(random, FORWARD),
                    0.2 + 0.4 * random.nextDouble(), 0);
            case APP_DB_CUT, APP_BROKER_CUT, APP_ISOLATED, BROKER_PAIR_CUT -> new PlannedFault(index, kind, at,
                    millis(random, 3000, 10000), instance, null, 0, 0);
            // Longer than Patroni's ttl (10 s), so that the cut-off primary demotes itself and the standby takes over.
            case DB_PRIMARY_ISOLATED -> new PlannedFault(index, kind, at, millis(random, 15000, 25000), instance, null, 0, 0);
        };
    }

    private static String anyOrOne(Random random) {
        return random.nextBoolean() ? "*" : pick(random, FORWARD);
    }

    private static String pick(Random random, List<String> from) {
        return from.get(random.nextInt(from.size()));
    }

    private static Duration millis(Random random, int min, int max) {
        return Duration.ofMillis(min + random.nextInt(max - min));
    }
}
