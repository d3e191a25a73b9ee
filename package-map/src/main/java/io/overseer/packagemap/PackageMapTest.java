package io.overseer.packagemap;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package map, checked on the compiled classes of the module whose build runs it (ejb-module and
 * web-module each run this one copy, from the package-map artifact, in their own directory): no cycle
 * between the packages; no package importing one that its package-info does not allow (the package-info
 * is the map's one statement — "May import: {@code platform}, {@code workflow}." or "May import nothing
 * of the application." — read there, so the text and the code cannot drift apart); and no package
 * writing a table that another package owns ({@link #TABLE_OWNERS}), which imports cannot show: a write
 * in native SQL is a string.
 *
 * <p>Why the compiled classes' constant pools, not the source files, for the SQL: they hold what the
 * code sends — literals, constant expressions the compiler folded ({@code "UPDATE … AND " + UNFINISHED}),
 * text blocks, the recipes of concatenations with run-time parts — and none of the comments and javadoc,
 * which rightly talk about "a single conditional UPDATE" and would need exceptions; and they are the
 * very classes ArchUnit reads. What neither could see: a statement assembled at run time from pieces that
 * are not constants ({@code "UPDATE " + table}); none exists, and review keeps it so.
 */
class PackageMapTest {

    /**
     * Which package owns each table the migrations create: its code alone may write the table, in native
     * SQL or in JPQL on the table's entity, and the table's entity lives in it. The state store owns the
     * order's records; the others own their own bookkeeping.
     */
    static final Map<String, String> TABLE_OWNERS = Map.ofEntries(
            entry("customer_order", "statestore"),
            entry("order_line", "statestore"),
            entry("order_attribute", "statestore"),
            entry("order_state", "statestore"),
            entry("step_state", "statestore"),
            entry("order_history", "statestore"),
            entry("flow_limit", "statestore"),
            entry("submission_key", "submission"),
            entry("notification_outbox", "notification"),
            entry("order_reply_to", "notification"),
            entry("admin_audit", "admin"),
            entry("dispatch_pause", "admin"),
            entry("bulk_job", "admin"),
            entry("bulk_item", "admin"),
            entry("job_lease", "platform"),
            entry("scheduler_instance", "platform"),
            entry("workflow_version", "workflow"),
            entry("schedule", "recurring"));

    private static final String ROOT = "io.overseer";
    private static final Path SOURCES = Path.of("src/main/java/io/overseer");
    private static final Path CLASS_DIR = Path.of("target/classes");
    private static final JavaClasses CLASSES = new ClassFileImporter().importPath(CLASS_DIR);
    private static final Pattern MAY_IMPORT = Pattern.compile("May import(.*?)\\.(\\s|$)", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("\\{@code (\\w+)}");
    /** A statement that writes the table named after it ("FOR UPDATE SKIP" and "DO UPDATE SET" name none). */
    private static final Pattern WRITE = Pattern.compile(
            "\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|MERGE\\s+INTO|TRUNCATE(?:\\s+TABLE)?)\\s+(?:ONLY\\s+)?(\\w+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)", Pattern.CASE_INSENSITIVE);

    @Test
    void packagesFormNoCycle() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void eachPackageImportsOnlyWhatItsPackageInfoAllows() throws IOException {
        assertAll(map().entrySet().stream().map(entry -> () -> rule(entry.getKey(), entry.getValue()).check(CLASSES)));
    }

    @Test
    void everyPackageIsOnTheMap() throws IOException {
        Set<String> compiled = CLASSES.stream().map(PackageMapTest::packageOf).filter(p -> !p.isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(compiled, map().keySet(), "each package needs a package-info saying what it may import");
    }

    /** The rule bites: the first package that uses an allowed import fails once that allowance is taken away. */
    @Test
    void aForbiddenImportFails() throws IOException {
        for (Map.Entry<String, Set<String>> entry : map().entrySet()) {
            for (String used : entry.getValue()) {
                if (uses(entry.getKey(), used)) {
                    Set<String> narrowed = new LinkedHashSet<>(entry.getValue());
                    narrowed.remove(used);
                    assertThrows(AssertionError.class, () -> rule(entry.getKey(), narrowed).check(CLASSES));
                    return;
                }
            }
        }
        throw new AssertionError("no package of this module imports another: nothing to narrow");
    }

    @Test
    void onlyATablesOwnerWritesIt() throws IOException {
        Map<String, String> tables = tablesByName();
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CLASS_DIR)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String className = CLASS_DIR.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".")
                        .replaceAll("\\.class$", "");
                try (InputStream in = Files.newInputStream(file)) {
                    violations.addAll(violations(className, ClassConstants.strings(in), tables));
                }
            }
        }
        assertEquals(List.of(), violations, "a table is written only by the package that owns it (TABLE_OWNERS)");
    }

    @Test
    void everyMigratedTableHasOneOwner() throws IOException, URISyntaxException {
        assertEquals(new TreeSet<>(TABLE_OWNERS.keySet()), migratedTables(),
                "each table the migrations create has an owner in TABLE_OWNERS, and only those");
    }

    @Test
    void everyEntityLivesInItsTablesOwner() {
        assertAll(entities().entrySet().stream().map(entity -> () -> {
            JavaClass type = CLASSES.get(entity.getKey());
            assertEquals(TABLE_OWNERS.get(tableOf(type)), packageOf(type), type.getName() + " maps " + tableOf(type));
        }));
    }

    /**
     * The SQL rule bites: a write of the state store's table in the workflow package is found, by its table
     * or its entity, in a class's constant pool (this class's own, which holds the planted text), and a
     * lock or an upsert's update is not taken for a write.
     */
    @Test
    void aWriteOfAnotherPackagesTableIsFound() throws IOException {
        String planted = "UPDATE order_state SET version = version + 1 WHERE order_id = ?1";
        try (InputStream in = PackageMapTest.class.getResourceAsStream("PackageMapTest.class")) {
            assertTrue(ClassConstants.strings(in).contains(planted));
        }
        Map<String, String> tables = Map.of("order_state", "order_state", "OrderState", "order_state");
        assertEquals(1, violations(ROOT + ".workflow.Example", List.of(planted), tables).size());
        assertEquals(1, violations(ROOT + ".workflow.Example", List.of("DELETE FROM OrderState s"), tables).size());
        assertEquals(List.of(), violations(ROOT + ".statestore.Example", List.of(planted), tables));
        assertEquals(List.of(), violations(ROOT + ".workflow.Example", List.of(
                "SELECT order_id FROM order_state FOR UPDATE SKIP LOCKED",
                "INSERT INTO workflow_version (workflow) VALUES (?1) ON CONFLICT (workflow) DO UPDATE SET workflow = ?1"),
                Map.of("order_state", "order_state", "workflow_version", "workflow_version")));
    }

    // --- the import rule

    private static ArchRule rule(String name, Set<String> allowed) {
        String[] packages = Stream.concat(Stream.of(name), allowed.stream()).map(p -> ROOT + "." + p + "..")
                .toArray(String[]::new);
        return classes().that().resideInAPackage(ROOT + "." + name + "..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(ROOT + "..").or(resideInAnyPackage(packages)))
                .as(ROOT + "." + name + " may import only " + allowed + " (its package-info)");
    }

    private static boolean uses(String from, String to) {
        return CLASSES.stream().filter(c -> packageOf(c).equals(from))
                .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                .anyMatch(d -> packageOf(d.getTargetClass()).equals(to));
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

    /** The application package a class is in ({@code scheduler} for io.overseer.scheduler.x.Y), or "". */
    private static String packageOf(JavaClass type) {
        return packageOfClass(type.getName());
    }

    private static String packageOfClass(String className) {
        String[] parts = className.split("\\.");
        return parts.length > 3 && className.startsWith(ROOT + ".") ? parts[2] : "";
    }

    // --- the tables' rule

    /** "{class} writes {table} (owned by {package}): {statement}" for each write outside the owner. */
    private static List<String> violations(String className, List<String> constants, Map<String, String> tables) {
        List<String> found = new ArrayList<>();
        String where = packageOfClass(className);
        for (String constant : constants) {
            Matcher write = WRITE.matcher(constant);
            while (write.find()) {
                String table = tables.get(write.group(1)) != null ? tables.get(write.group(1))
                        : tables.get(write.group(1).toLowerCase(java.util.Locale.ROOT));
                String owner = table == null ? null : TABLE_OWNERS.get(table);
                if (table != null && !where.equals(owner)) {
                    found.add(className + " writes " + table + " (owned by " + owner + "): " + constant);
                }
            }
        }
        return found;
    }

    /** Every name a write may use for a table: the table's own, and its entity's name in JPQL. */
    private static Map<String, String> tablesByName() {
        Map<String, String> names = new TreeMap<>();
        TABLE_OWNERS.keySet().forEach(table -> names.put(table, table));
        entities().forEach((className, entityName) -> names.put(entityName, tableOf(CLASSES.get(className))));
        return names;
    }

    /** The module's entities: class name to entity name. */
    private static Map<String, String> entities() {
        Map<String, String> entities = new TreeMap<>();
        for (JavaClass type : CLASSES) {
            annotation(type, "jakarta.persistence.Entity").ifPresent(name ->
                    entities.put(type.getName(), name.isEmpty() ? type.getSimpleName() : name));
        }
        return entities;
    }

    private static String tableOf(JavaClass entity) {
        return annotation(entity, "jakarta.persistence.Table").filter(name -> !name.isEmpty())
                .orElse(entity.getSimpleName()).toLowerCase(java.util.Locale.ROOT);
    }

    /** The {@code name} of the annotation if the class has it ("" if it sets none). */
    private static Optional<String> annotation(JavaClass type, String annotation) {
        return type.getAnnotations().stream().filter(a -> a.getRawType().getName().equals(annotation)).findFirst()
                .map(a -> a.get("name").map(Object::toString).orElse(""));
    }

    /** The tables the Flyway migrations create, read from the classpath (ejb-module's classes or its jar). */
    private static Set<String> migratedTables() throws IOException, URISyntaxException {
        URI uri = PackageMapTest.class.getClassLoader().getResource("db/migration").toURI();
        if (uri.getScheme().equals("jar")) {
            try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                return tablesIn(jar.provider().getPath(uri));
            }
        }
        return tablesIn(Path.of(uri));
    }

    private static Set<String> tablesIn(Path migrations) throws IOException {
        Set<String> tables = new TreeSet<>();
        try (Stream<Path> files = Files.list(migrations)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sql")).toList()) {
                Matcher create = CREATE_TABLE.matcher(Files.readString(file));
                while (create.find()) {
                    tables.add(create.group(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return tables;
    }
}
