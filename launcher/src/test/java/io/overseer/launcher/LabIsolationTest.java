package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lab (io.overseer.launcher.lab) stays out of a stack that does not ask for it: the launcher's classes
 * loaded afresh by a loader of their own, which notes every class it defines, and a stack built and
 * summarised (and stopped) there for ./run's default modes, then for --db-ha, which must load it.
 */
class LabIsolationTest {

    private static final String LAB = "io.overseer.launcher.lab.";

    @TempDir
    Path dataDir;

    @Test
    void aStackWithoutDbHaOrNamespacesNeverLoadsTheLab() throws Exception {
        for (List<String> args : List.of(List.<String>of(), List.of("--broker-ha"), List.of("--instances", "2", "--tracing"),
                List.of("--db-url", "jdbc:postgresql://db.example/overseer", "--db-user", "u", "--broker-host", "broker.example",
                        "--broker-user", "u", "--broker-password", "p"))) {
            Set<String> loaded = buildStack(args);
            assertTrue(loaded.contains(Stack.class.getName()), "the loader saw the stack's classes: " + loaded);
            assertEquals(List.of(), loaded.stream().filter(c -> c.startsWith(LAB)).toList(), "with " + args);
        }
    }

    @Test
    void dbHaLoadsIt() throws Exception {
        Set<String> loaded = buildStack(List.of("--db-ha"));
        assertTrue(loaded.contains(LAB + "PostgresHa"), loaded.toString());
    }

    /** The names of the launcher's classes a stack built from {@code args} loaded (a failed construction included). */
    private Set<String> buildStack(List<String> args) throws Exception {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--data-dir", dataDir.toString()));
        try (RecordingLoader loader = new RecordingLoader()) {
            // Through an interface of the JDK: reflection on Stack itself would load every type its methods name.
            @SuppressWarnings("unchecked")
            Function<String[], String> probe = (Function<String[], String>) loader.loadClass(Probe.class.getName())
                    .getConstructor().newInstance();
            try {
                probe.apply(all.toArray(String[]::new));
            } catch (IllegalStateException e) {
                // --db-ha as root needs Debian's postgres user: the lab was loaded all the same
                if (!args.contains("--db-ha")) {
                    throw e;
                }
            }
            return loader.loaded;
        }
    }

    /** Builds the stack, prints its summary and stops it, as ./run does but for the starting (run in the loader). */
    public static final class Probe implements Function<String[], String> {

        @Override
        public String apply(String[] args) {
            Stack stack = new Stack(LauncherOptions.parse(args, Map.of()), StackLayout.fromDirectory(Path.of("/tmp/stack")));
            String summary = stack.summary();
            stack.stop();
            return summary;
        }
    }

    /** This test's class path, defined again by this loader (none of it by its parent), each class noted. */
    private static final class RecordingLoader extends URLClassLoader {

        final Set<String> loaded = new ConcurrentSkipListSet<>();

        RecordingLoader() throws MalformedURLException {
            super(classPath(), ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Class<?> c = super.findClass(name);
            if (name.startsWith("io.overseer.")) {
                loaded.add(name);
            }
            return c;
        }

        private static URL[] classPath() throws MalformedURLException {
            List<URL> urls = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                urls.add(Path.of(entry).toUri().toURL());
            }
            return urls.toArray(URL[]::new);
        }
    }
}
