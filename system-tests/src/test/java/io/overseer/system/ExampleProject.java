package io.overseer.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.overseer.launcher.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The example project (examples/starter), built as a team would build its own: copied away from this
 * repository, against a clean local Maven repository that holds Overseer's published artifacts and the third-party
 * ones, and nothing else of Overseer — so the build sees no source and no module of this reactor. Then a stack
 * directory for the launcher whose application is the example's EAR and WAR instead of Overseer's own.
 */
final class ExampleProject {

    /** What a team's project depends on: overseer-bom's artifacts, and the parent of those that have one. */
    private record Published(String artifactId, String pom, String file, String extension) {
    }

    private static final List<Published> PUBLISHED = List.of(
            new Published("overseer-parent", "pom.xml", null, null),
            new Published("overseer-bom", "bom/pom.xml", null, null),
            new Published("overseer-agent-api", "agent-api/pom.xml", "agent-api/target/overseer-agent-api-%s.jar", "jar"),
            // what install puts in a repository: the flattened POM, with every library's tested version
            new Published("overseer-ejb", "ejb-module/.flattened-pom.xml", "ejb-module/target/overseer-ejb-%s.jar", "jar"),
            new Published("overseer-web", "web-module/pom.xml", "web-module/target/overseer-web-%s.war", "war"),
            new Published("overseer-health-probes", "health-probes/pom.xml",
                    "health-probes/target/overseer-health-probes-%s.jar", "jar"));

    private final Path projectRoot;
    private final String version;
    private final Path dir;

    ExampleProject(Path workDir) {
        this.projectRoot = Path.of(required("overseer.project.root"));
        this.version = required("overseer.project.version");
        this.dir = workDir;
    }

    /** The example's own directory, once {@link #build} copied it. */
    Path project() {
        return dir.resolve("starter");
    }

    /**
     * Copies the example and a clean repository, "installs" Overseer's artifacts into it (the layout
     * maven-install-plugin writes), and runs {@code mvn -o package} on the copy.
     */
    void build() throws IOException, InterruptedException {
        assertPublishesTheBom();
        copySources(projectRoot.resolve("examples/starter"), project());
        Path repository = cleanRepository();
        for (Published artifact : PUBLISHED) {
            Path home = Files.createDirectories(repository.resolve("io/overseer").resolve(artifact.artifactId()).resolve(version));
            String base = artifact.artifactId() + "-" + version;
            Files.copy(projectRoot.resolve(artifact.pom()), home.resolve(base + ".pom"), StandardCopyOption.REPLACE_EXISTING);
            if (artifact.file() != null) {
                Files.copy(projectRoot.resolve(artifact.file().formatted(version)), home.resolve(base + "." + artifact.extension()),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
        // overseer.version given, as a team's pom names a release: during a release the example's own may lag
        run(project(), dir.resolve("build.log"), projectRoot.resolve("mvnw").toString(), "-B", "-o",
                "-Dmaven.repo.local=" + repository, "-Doverseer.version=" + version, "-f", project().resolve("pom.xml").toString(),
                "package");
    }

    Path ear() {
        return project().resolve("ear/target/orders.ear");
    }

    Path war() {
        return project().resolve("war/target/orders.war");
    }

    /**
     * A stack directory like the built one, whose overseer.ear and overseer.war are the example's: the same
     * servers, adapter, broker and scripts (links to the built stack's).
     */
    Path stage(Path builtStack) throws IOException {
        Path stack = Files.createDirectories(dir.resolve("stack"));
        try (Stream<Path> entries = Files.list(builtStack)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!name.equals("overseer.ear") && !name.equals("overseer.war")) {
                    Files.createSymbolicLink(stack.resolve(name), entry.toAbsolutePath());
                }
            }
        }
        Files.copy(ear(), stack.resolve("overseer.ear"));
        Files.copy(war(), stack.resolve("overseer.war"));
        return stack;
    }

    /** The archive's entries but Maven's own metadata (META-INF/maven/...), which names the project that built it. */
    static Set<String> entries(Path archive) {
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            Set<String> names = new TreeSet<>();
            zip.stream().map(e -> e.getName()).filter(n -> !n.startsWith("META-INF/maven/")).forEach(names::add);
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(archive.toString(), e);
        }
    }

    /**
     * The user's local repository without Overseer: hard links (a copy where they cannot be made), then
     * io/overseer removed, so that nothing an earlier build installed can be resolved.
     */
    private Path cleanRepository() throws IOException, InterruptedException {
        Path from = Path.of(required("overseer.maven.repo"));
        Path repository = dir.resolve("m2");
        Files.createDirectories(repository);
        try {
            run(dir, dir.resolve("copy.log"), "cp", "-al", from + "/.", repository.toString());
        } catch (IllegalStateException linksRefused) {
            run(dir, dir.resolve("copy.log"), "cp", "-a", from + "/.", repository.toString());
        }
        FileTrees.delete(repository.resolve("io/overseer"));
        return repository;
    }

    /**
     * Every artifact the BOM names is among those put in the repository: one added to the BOM and not here would
     * be missing from a team's build and go unnoticed.
     */
    private void assertPublishesTheBom() throws IOException {
        String bom = Files.readString(projectRoot.resolve("bom/pom.xml"));
        Set<String> named = new TreeSet<>();
        java.util.regex.Matcher artifact = java.util.regex.Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(bom);
        while (artifact.find()) {
            named.add(artifact.group(1));
        }
        named.remove("overseer-bom");
        Set<String> put = new TreeSet<>();
        PUBLISHED.forEach(p -> put.add(p.artifactId()));
        assertTrue(put.containsAll(named), "the BOM names " + named + ", the clean repository holds " + put);
    }

    /** The example's files, without what a build of it left (target/). */
    private static void copySources(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path relative = from.relativize(file);
                boolean built = false;
                for (Path element : relative) {
                    built |= element.toString().equals("target");
                }
                if (built) {
                    continue;
                }
                if (Files.isDirectory(file)) {
                    Files.createDirectories(to.resolve(relative.toString()));
                } else {
                    Files.copy(file, to.resolve(relative.toString()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void run(Path workingDirectory, Path log, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish in 10 min; see " + log);
        }
        if (p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): "
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(property + " is not set: system-tests' failsafe configuration sets it");
        }
        return value;
    }

    /** The example's archive holds exactly what Overseer's own holds, plus {@code added}. */
    static void assertOverseersPlus(Path overseers, Path example, String added) {
        Set<String> expected = new TreeSet<>(entries(overseers));
        expected.add(added);
        assertEquals(new ArrayList<>(expected), new ArrayList<>(entries(example)), example + " against " + overseers);
    }
}
