package io.overseer.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/** What the figures were measured on and with: machine, JDK, component versions, code revision. */
record Machine(int cores, double ramGiB, String kernel, String jdk, String server, String artemis, String git) {

    static Machine describe(Path root, BenchRuntime runtime) {
        Path stack = root.resolve("launcher/target/stack");
        return new Machine(Runtime.getRuntime().availableProcessors(), memTotalGiB(), read("/proc/sys/kernel/osrelease"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                runtime.label() + " " + serverVersion(stack, runtime), artemisVersion(stack), git(root));
    }

    private static String serverVersion(Path stack, BenchRuntime runtime) {
        return switch (runtime) {
            case PAYARA_MICRO -> payaraVersion(stack.resolve("payara-micro.jar"));
            case PAYARA_SERVER -> payaraServerVersion(stack.resolve("payara6/glassfish/config/branding/glassfish-version.properties"));
            case WILDFLY -> wildflyVersion(stack);
        };
    }

    /** major.minor.update of the unpacked Payara Server, as its branding file says. */
    private static String payaraServerVersion(Path branding) {
        try (InputStream in = Files.newInputStream(branding)) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("major_version", "?") + "." + p.getProperty("minor_version", "?") + "."
                    + p.getProperty("update_version", "?");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The unpacked WildFly's version, from its directory's name (wildfly-39.0.1.Final), as the launcher finds it. */
    static String wildflyVersion(Path stack) {
        return versionOf(stack, "wildfly-");
    }

    private static double memTotalGiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // unknown
        }
        return Double.NaN;
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file)).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String payaraVersion(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            var entry = zip.getEntry("META-INF/maven/fish.payara.server.internal.extras/payara-micro-boot/pom.properties");
            if (entry != null) {
                try (InputStream in = zip.getInputStream(entry)) {
                    Properties p = new Properties();
                    p.load(in);
                    return p.getProperty("version", "unknown");
                }
            }
        } catch (IOException ignored) {
            // unknown
        }
        return "unknown";
    }

    private static String artemisVersion(Path stack) {
        return versionOf(stack, "apache-artemis-");
    }

    /** The newest directory {@code prefix}VERSION of the stack (the launcher's choice too): VERSION. */
    private static String versionOf(Path stack, String prefix) {
        try (Stream<Path> s = Files.list(stack)) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix))
                    .sorted().reduce((a, b) -> b).map(n -> n.substring(prefix.length())).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** "branch at abc1234" (plus "with uncommitted changes"), or "unknown" outside a git work tree. */
    private static String git(Path root) {
        String sha = run(root, "git", "rev-parse", "--short", "HEAD");
        if (sha.isEmpty()) {
            return "unknown";
        }
        String branch = run(root, "git", "rev-parse", "--abbrev-ref", "HEAD");
        String dirty = run(root, "git", "status", "--porcelain", "--untracked-files=no");
        return branch + " at " + sha + (dirty.isEmpty() ? "" : " with uncommitted changes");
    }

    private static String run(Path dir, String... cmd) {
        try {
            Process p = new ProcessBuilder(List.of(cmd)).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
