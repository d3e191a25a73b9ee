package io.overseer.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of GET /api/metrics (Prometheus text format, as a viewer), with lookups by name and labels. */
public final class Metrics {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})?\\s+(\\S+)(\\s+\\S+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final String text;
    private final List<Sample> samples = new ArrayList<>();

    private Metrics(String text) {
        this.text = text;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line.trim());
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            if (!seen.add(m.group(1) + labels)) {
                continue; // a series printed twice (Payara 6's own /metrics did): count it once
            }
            try {
                samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
            } catch (NumberFormatException e) {
                // NaN spelled otherwise, etc.: not a sample we look at
            }
        }
    }

    /** Scrapes the application's metrics at /api/metrics of the given application URL, as the viewer. */
    public static Metrics scrape(URI appBase) {
        Http.Reply reply = Http.get(appBase.resolve("api/metrics"), TestStack.credentials(TestStack.VIEWER));
        assertEquals(200, reply.status(), reply.body());
        return new Metrics(reply.body());
    }

    /** The sum over samples of this name carrying all these labels (0 if none). */
    public double sum(String name, String... labelPairs) {
        return matching(name, labelPairs).stream().mapToDouble(Sample::value).sum();
    }

    public List<Sample> matching(String name, String... labelPairs) {
        List<Sample> found = new ArrayList<>();
        for (Sample s : samples) {
            if (!s.name().equals(name)) {
                continue;
            }
            boolean all = true;
            for (int i = 0; i + 1 < labelPairs.length; i += 2) {
                all &= labelPairs[i + 1].equals(s.labels().get(labelPairs[i]));
            }
            if (all) {
                found.add(s);
            }
        }
        return found;
    }

    public boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    public String text() {
        return text;
    }
}
