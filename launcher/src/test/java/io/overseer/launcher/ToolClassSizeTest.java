package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main class of a tool module over {@value #MAX_LINES} lines, as for the product's classes: the launcher,
 * the chaos runner, the benchmarks, the simulator (remote-service) and any other module of the root pom that
 * is not part of the product. Read from the sources, beside this module ({@code ..}).
 */
class ToolClassSizeTest {

    static final int MAX_LINES = 400;
    /** The modules deployed with the application or the broker: their size is the product's own rule. */
    static final Set<String> PRODUCT = Set.of("agent-api", "ejb-module", "web-module", "health-probes", "broker-policy",
            "ear", "micro-war", "server-config", "bom");
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void noToolClassIsLongerThanTheLimit() throws IOException {
        List<String> tools = toolModules();
        assertTrue(tools.containsAll(List.of("launcher", "chaos-runner", "benchmarks", "remote-service")), tools.toString());
        List<String> tooLong = new ArrayList<>();
        for (String module : tools) {
            Path main = ROOT.resolve(module).resolve("src/main");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(main)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    int lines = Files.readAllLines(file).size();
                    if (lines > MAX_LINES) {
                        tooLong.add(ROOT.relativize(file) + ": " + lines + " lines");
                    }
                }
            }
        }
        assertEquals(List.of(), tooLong, "split these classes (at most " + MAX_LINES + " lines each)");
    }

    /** Every module of the root pom that is not the product's. */
    private static List<String> toolModules() throws IOException {
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        List<String> modules = new ArrayList<>();
        while (m.find()) {
            if (!PRODUCT.contains(m.group(1).trim())) {
                modules.add(m.group(1).trim());
            }
        }
        return modules;
    }
}
