package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ParserConfiguration.LanguageLevel;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The project's size rule, for the product and the tools alike: no main source file of any module of the
 * root pom over {@value #MAX_FILE_LINES} lines, no method or constructor over {@value #MAX_METHOD_LINES}.
 * Read from the sources beside this module ({@code ..}), each offender named by file, line and length.
 *
 * <p>Why on a syntax tree (JavaParser) rather than by counting braces: braces in strings, text blocks and
 * comments, lambdas and anonymous classes would each need a rule of their own. A method is measured from
 * its first annotation (or its signature) to its closing brace, its javadoc aside; the lambdas and
 * anonymous classes inside it count as its lines, and are not measured again on their own. A record's
 * compact constructor is not a method here.
 *
 * <p>Why here, in the launcher's tests, and not beside {@code PackageMapTest}: package-map is a library of
 * tests whose own build runs none; ejb-module and web-module run its test on their own classes, so a rule
 * over every module put there would run twice, and in the product's test runs for the tools' sake.
 */
class SourceSizeTest {

    static final int MAX_FILE_LINES = 400;
    static final int MAX_METHOD_LINES = 60;
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void noSourceFileOrMethodIsLongerThanTheLimits() throws IOException {
        List<String> modules = modules();
        assertTrue(modules.containsAll(List.of("agent-api", "ejb-module", "web-module", "health-probes", "broker-policy",
                "launcher", "chaos-runner", "benchmarks", "remote-service", "package-map")), modules.toString());
        JavaParser parser = parser();
        List<String> tooLong = new ArrayList<>();
        for (String module : modules) {
            for (Path file : mainSources(ROOT.resolve(module))) {
                String name = ROOT.relativize(file).toString();
                String source = Files.readString(file);
                int lines = (int) source.lines().count();
                if (lines > MAX_FILE_LINES) {
                    tooLong.add(name + ": " + lines + " lines (file)");
                }
                tooLong.addAll(longMethods(parser, name, source));
            }
        }
        assertTrue(tooLong.isEmpty(), () -> "split these (at most " + MAX_FILE_LINES + " lines a file, "
                + MAX_METHOD_LINES + " a method or constructor):\n" + String.join("\n", tooLong));
    }

    /** The measure itself, on a source whose lengths are known: a failing rule would otherwise pass silently. */
    @Test
    void measuresAMethodFromItsAnnotationToItsBraceWithItsLambdasAndAnonymousClasses() {
        String source = """
                record Sample(int a) {
                    Sample {
                        if (a < 0) {
                            throw new IllegalArgumentException();
                        }
                    }

                    /** Its javadoc is not counted. */
                    @Deprecated
                    Runnable task() {
                        return new Runnable() {
                            @Override
                            public void run() {
                                java.util.List.of(1).forEach(i -> {
                                    System.out.println(i);
                                });
                            }
                        };
                    }
                }
                """;
        assertEquals(List.of("Sample.java:9 task(): 11 lines"), longMethods(parser(), "Sample.java", source, 10));
        assertEquals(List.of(), longMethods(parser(), "Sample.java", source, 11));
    }

    static List<String> longMethods(JavaParser parser, String name, String source) {
        return longMethods(parser, name, source, MAX_METHOD_LINES);
    }

    /** The methods and constructors over the limit, outermost only: a nested one is shorter than its host. */
    static List<String> longMethods(JavaParser parser, String name, String source, int limit) {
        ParseResult<CompilationUnit> parsed = parser.parse(source);
        CompilationUnit unit = parsed.getResult().filter(u -> parsed.isSuccessful())
                .orElseThrow(() -> new AssertionError(name + " does not parse: " + parsed.getProblems()));
        List<String> tooLong = new ArrayList<>();
        for (CallableDeclaration<?> callable : unit.findAll(CallableDeclaration.class)) {
            if (callable.findAncestor(CallableDeclaration.class).isPresent()) {
                continue;
            }
            int first = callable.getBegin().orElseThrow().line;
            int lines = lines(callable);
            if (lines > limit) {
                tooLong.add(name + ":" + first + " " + callable.getSignature().asString() + ": " + lines + " lines");
            }
        }
        return tooLong;
    }

    private static int lines(Node node) {
        return node.getEnd().orElseThrow().line - node.getBegin().orElseThrow().line + 1;
    }

    private static JavaParser parser() {
        return new JavaParser(new ParserConfiguration().setLanguageLevel(LanguageLevel.JAVA_17));
    }

    private static List<Path> mainSources(Path module) throws IOException {
        Path main = module.resolve("src/main");
        if (!Files.isDirectory(main)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(main)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** Every module of the root pom, the product's and the tools'. */
    private static List<String> modules() throws IOException {
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        List<String> modules = new ArrayList<>();
        while (m.find()) {
            modules.add(m.group(1).trim());
        }
        return modules;
    }
}
