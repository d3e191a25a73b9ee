package io.overseer.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** PNG plots (XChart, headless): throughput over time from order_history, and latency distributions. */
final class Plots {

    private static final int MAX_BINS = 150;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Plots() {
    }

    /** Submitted, claimed and Processed orders per second (and steps completed, for multi-step work) over the phase. */
    static void throughput(PhaseData d, String title, Path png) throws IOException {
        long t0 = d.firstSubmit();
        double span = Math.max(1, (d.lastProcessed() - t0) / 1e6);
        double width = Math.max(1, Math.ceil(span / MAX_BINS));
        int bins = (int) Math.ceil(span / width) + 1;
        double[] x = new double[bins];
        double[] submitted = new double[bins];
        double[] claimed = new double[bins];
        double[] processed = new double[bins];
        double[] steps = new double[bins];
        for (int i = 0; i < bins; i++) {
            x[i] = i * width;
        }
        for (PhaseData.OrderTrace t : d.orders.values()) {
            add(submitted, t.submittedAt, t0, width);
            if (t.firstClaimAt != Long.MAX_VALUE) {
                add(claimed, t.firstClaimAt, t0, width);
            }
            if (t.processedAt > 0) {
                add(processed, t.processedAt, t0, width);
            }
        }
        d.stepCompletions.forEach(at -> add(steps, at, t0, width));
        XYChart chart = chart(title, "seconds since the first submission (bins of " + (int) width + " s)", "per second");
        chart.addSeries("submitted", x, submitted);
        chart.addSeries("claimed (first claim)", x, claimed);
        chart.addSeries("Processed", x, processed);
        if (d.stepCompletions.size() > d.orders.size()) {
            chart.addSeries("steps completed", x, steps);
        }
        save(chart, png);
    }

    /** Latency distributions, one line per channel: latency (log scale) at each percentile. */
    static void latency(Map<String, List<Double>> sortedMs, String title, Path png) throws IOException {
        XYChart chart = chart(title, "percentile of orders", "submit -> Processed (ms, log scale)");
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        for (Map.Entry<String, List<Double>> e : sortedMs.entrySet()) {
            List<Double> v = e.getValue();
            if (v.isEmpty()) {
                continue;
            }
            double[] x = new double[v.size()];
            double[] y = new double[v.size()];
            for (int i = 0; i < v.size(); i++) {
                x[i] = 100.0 * (i + 1) / v.size();
                y[i] = Math.max(1, v.get(i));
            }
            chart.addSeries(e.getKey(), x, y);
        }
        save(chart, png);
    }

    private static void add(double[] bins, long atMicros, long t0, double width) {
        int i = (int) (((atMicros - t0) / 1e6) / width);
        if (i >= 0 && i < bins.length) {
            bins[i] += 1 / width;
        }
    }

    private static XYChart chart(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(1000).height(520).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setMarkerSize(0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return chart;
    }

    private static void save(XYChart chart, Path png) throws IOException {
        String file = png.toString();
        BitmapEncoder.saveBitmap(chart, file.substring(0, file.length() - ".png".length()), BitmapEncoder.BitmapFormat.PNG);
    }
}
