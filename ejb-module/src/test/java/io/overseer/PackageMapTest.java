package io.overseer;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package map, checked on this module's compiled classes: no cycle between the packages, and no
 * package importing one that its package-info does not allow. The package-info is the map's one statement
 * ("May import: {@code platform}, {@code workflow}." or "May import nothing of the application."); this
 * test reads it there, so the text and the code cannot drift apart.
 */
class PackageMapTest {

    private static final Path SOURCES = Path.of("src/main/java/io/overseer");
    private static final JavaClasses CLASSES = new ClassFileImporter().importPath(Path.of("target/classes"));
    private static final Pattern MAY_IMPORT = Pattern.compile("May import(.*?)\\.(\\s|$)", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("\\{@code (\\w+)}");

    @Test
    void packagesFormNoCycle() {
        slices().matching("io.overseer.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void eachPackageImportsOnlyWhatItsPackageInfoAllows() throws IOException {
        assertAll(map().entrySet().stream().map(entry -> () -> rule(entry.getKey(), entry.getValue()).check(CLASSES)));
    }

    @Test
    void everyPackageIsOnTheMap() throws IOException {
        Set<String> compiled = CLASSES.stream().map(c -> c.getPackageName().split("\\.")).filter(p -> p.length > 2)
                .map(p -> p[2]).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(compiled, map().keySet(), "each package needs a package-info saying what it may import");
    }

    /** The rule bites: scheduler's listener hands new orders to submission, so without that allowance it fails. */
    @Test
    void aForbiddenImportFails() throws IOException {
        Set<String> narrowed = new LinkedHashSet<>(map().get("scheduler"));
        assertTrue(narrowed.remove("submission"));
        assertThrows(AssertionError.class, () -> rule("scheduler", narrowed).check(CLASSES));
    }

    private static ArchRule rule(String name, Set<String> allowed) {
        String[] packages = Stream.concat(Stream.of(name), allowed.stream()).map(p -> "io.overseer." + p + "..")
                .toArray(String[]::new);
        return classes().that().resideInAPackage("io.overseer." + name + "..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage("io.overseer..").or(resideInAnyPackage(packages)))
                .as("io.overseer." + name + " may import only " + allowed + " (its package-info)");
    }

    /** Each package's allowed imports, as its package-info states them. */
    private static Map<String, Set<String>> map() throws IOException {
        Map<String, Set<String>> map = new TreeMap<>();
        try (Stream<Path> infos = Files.list(SOURCES)) {
            for (Path dir : infos.filter(Files::isDirectory).toList()) {
                Path info = dir.resolve("package-info.java");
                String text = Files.isRegularFile(info) ? Files.readString(info) : "";
                Matcher sentence = MAY_IMPORT.matcher(text);
                assertTrue(sentence.find(), info + " must say what the package may import");
                Set<String> allowed = new LinkedHashSet<>();
                Matcher name = PACKAGE.matcher(sentence.group(1));
                while (name.find()) {
                    allowed.add(name.group(1));
                }
                map.put(dir.getFileName().toString(), allowed);
            }
        }
        return map;
    }
}
