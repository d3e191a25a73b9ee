package io.overseer.bench;

import java.util.List;

/** Percentiles (nearest rank) of a sample. */
final class Stats {

    private Stats() {
    }

    static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
