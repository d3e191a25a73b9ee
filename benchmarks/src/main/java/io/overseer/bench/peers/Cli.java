package io.overseer.bench.peers;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * What the stand-alone benchmark programs (peers, ceilings, scale) share: {@code --key value} arguments
 * (parsed by picocli) and the one output contract the runner parses, one {@code RESULT {json}} line per
 * measurement on stdout. Everything else a program says goes to stderr, so the runner never mistakes it for a figure.
 */
public final class Cli {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> values;

    private Cli(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Parses {@code --key value} pairs with picocli, one option a known key; an unknown key or a key without a
     * value is an error, not a guess. The keys in {@link #FLAGS} take no value.
     */
    public static Cli parse(String[] args, Set<String> known) {
        CommandSpec spec = CommandSpec.create();
        spec.parser().overwrittenOptionsAllowed(true).expandAtFiles(false);
        known.stream().sorted().forEach(name -> spec.addOption(FLAGS.contains(name)
                ? OptionSpec.builder("--" + name).arity("0").type(boolean.class).build()
                : OptionSpec.builder("--" + name).arity("1").type(String.class).paramLabel("VALUE").build()));
        ParseResult result;
        try {
            result = new CommandLine(spec).parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; known: --" + String.join(", --", known.stream()
                    .sorted().toList()), e);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Map<String, String> values = new HashMap<>();
        for (OptionSpec option : result.matchedOptions()) {
            String name = option.longestName().substring(2);
            values.put(name, FLAGS.contains(name) ? "true" : option.getValue());
        }
        return new Cli(values);
    }

    /** Arguments that take no value. */
    private static final Set<String> FLAGS = Set.of("reset", "keep", "in-place", "unlogged");

    public String required(String key) {
        String v = values.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("--" + key + " is required");
        }
        return v;
    }

    public String get(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    public int getInt(String key, int defaultValue) {
        String v = values.get(key);
        if (v == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be an integer, got '" + v + "'");
        }
    }

    public boolean flag(String key) {
        return values.containsKey(key);
    }

    /** A result under construction: name, unit and value first, then details in insertion order. */
    public static Map<String, Object> result(String name, String unit, double value) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", name);
        r.put("unit", unit);
        r.put("value", round(value));
        return r;
    }

    public static void print(Map<String, Object> result) {
        try {
            System.out.println("RESULT " + JSON.writeValueAsString(result));
            System.out.flush();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot write result " + result, e);
        }
    }

    public static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("median of nothing");
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Three significant decimals are more than any of these measurements can tell apart. */
    public static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    public static void log(String message) {
        System.err.println(message);
        System.err.flush();
    }

    /**
     * Runs a program body; any failure ends the JVM with status 1 and one clear line on stderr, so the
     * runner records a failure instead of a figure.
     */
    public static void run(String program, Body body) {
        // Library logging (db-scheduler, JobRunr, Artemis) through slf4j-simple: warnings only, on stderr.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        // JobRunr warns for every batch whose creation filter took > 10 ms, which a busy machine does;
        // the timing it complains about is ours to report, not a fault.
        System.setProperty("org.slf4j.simpleLogger.log.org.jobrunr.jobs.filters.JobCreationFilters", "error");
        try {
            body.run();
        } catch (IllegalArgumentException e) {
            System.err.println(program + ": " + e.getMessage());
            System.exit(2);
        } catch (Throwable e) {
            System.err.println(program + " FAILED: " + e);
            e.printStackTrace(System.err);
            System.exit(1);
        }
        System.exit(0); // library threads (schedulers, pools) must not keep the process alive
    }

    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }
}
