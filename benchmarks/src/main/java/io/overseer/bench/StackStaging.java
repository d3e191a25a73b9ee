package io.overseer.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The stack directory the launcher gets (--stack-dir) instead of its own: the same servers, adapter,
 * Artemis and simulator (symlinks), a copy of this worktree's application with the no-op agent added (the
 * WAR's WEB-INF/lib, the EAR's EJB module: see {@link #earWithAgent}), a
 * broker.xml with one queue more for ArtemisCeiling, and for Payara Micro a post-boot file with a line
 * more that keeps its HTTP listener on 127.0.0.1 (the launcher starts it without a data grid). No change to
 * the launcher is needed.
 */
final class StackStaging {

    private static final String LOOPBACK_ONLY = """

            # ./bench: every listener on loopback only (Payara Micro binds all interfaces by default)
            set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address=127.0.0.1
            """;

    /** ArtemisCeiling's own queue (empty, used by nothing else); the "#" security setting lets operators use it. */
    static final String CEILING_QUEUE_NAME = "bench.ceiling";
    private static final String CEILING_QUEUE = "   <address name=\"" + CEILING_QUEUE_NAME + "\"><anycast><queue name=\""
            + CEILING_QUEUE_NAME + "\"/></anycast></address>\n      ";
    /** Staged here rather than linked: the application copies and the two modified configuration files. */
    private static final Set<String> OWN = Set.of("overseer.war", "overseer.ear", "config");
    /** The EAR's EJB module (ear/pom.xml's bundleFileName) and where the agent's classes are in its jar. */
    static final String EJB_MODULE = "overseer-ejb.jar";
    static final String AGENT_PACKAGE = "io/overseer/bench/agent";

    private StackStaging() {
    }

    /** The staged directory {@code stack} for {@code runtime}, made from the built stack. */
    static Path stage(BenchRuntime runtime, Path builtStack, Path stack, Path application, Path agentJar) throws IOException {
        Files.createDirectories(stack.resolve("config"));
        try (Stream<Path> entries = Files.list(builtStack)) {
            for (Path p : entries.toList()) {
                if (!OWN.contains(p.getFileName().toString())) {
                    Files.createSymbolicLink(stack.resolve(p.getFileName().toString()), p.toAbsolutePath());
                }
            }
        }
        String brokerXml = Files.readString(builtStack.resolve("config/broker.xml"));
        if (!brokerXml.contains("</addresses>")) {
            throw new IllegalStateException("broker.xml has no </addresses> to add the ceiling's queue to");
        }
        Files.writeString(stack.resolve("config/broker.xml"), brokerXml.replace("</addresses>", CEILING_QUEUE + "</addresses>"));
        // Payara Micro only: Payara Server's node binds every listener and its data grid to loopback itself
        // (pre-boot file, template domain.xml), and its HTTP listener is not called http-listener, so the
        // line would fail its post-boot multimode; WildFly reads no post-boot file.
        Files.writeString(stack.resolve("config/post-boot.asadmin"), Files.readString(builtStack.resolve("config/post-boot.asadmin"))
                + (runtime == BenchRuntime.PAYARA_MICRO ? LOOPBACK_ONLY : ""));
        try (Stream<Path> config = Files.list(builtStack.resolve("config"))) {
            for (Path p : config.toList()) {
                Path target = stack.resolve("config").resolve(p.getFileName());
                if (Files.isDirectory(p)) {
                    Files.createSymbolicLink(target, p.toAbsolutePath()); // config/wildfly: the jboss-cli scripts
                } else if (!Files.exists(target)) {
                    Files.copy(p, target); // e.g. http-closed/-open.asadmin
                }
            }
        }
        if (runtime.runsEar()) {
            earWithAgent(application, stack.resolve("overseer.ear"), agentJar, stack.resolve("overseer-ejb.jar.tmp"));
        } else {
            Files.copy(application, stack.resolve("overseer.war"));
            try (FileSystem war = zip(stack.resolve("overseer.war"))) {
                Files.copy(agentJar, war.getPath("/WEB-INF/lib/overseer-bench-noop-agent.jar"), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return stack;
    }

    /**
     * A copy of the EAR whose EJB module holds the agent's classes: the benchmark patches the built EAR rather
     * than assembling one, and inside overseer-ejb.jar the agent is in the bean archive of RemoteServices'
     * Instance<RemoteService> on every runtime (the module's beans.xml, annotated, finds its
     * {@code @ApplicationScoped}). A team does it the supported way instead: its agents a jar of its own in lib/,
     * beside the agent API (examples/starter, docs/agents.md).
     */
    static void earWithAgent(Path ear, Path copy, Path agentJar, Path scratch) throws IOException {
        Files.copy(ear, copy);
        try (FileSystem earZip = zip(copy)) {
            Path ejb = earZip.getPath("/" + EJB_MODULE);
            if (!Files.exists(ejb)) {
                throw new IllegalStateException("no " + EJB_MODULE + " in " + ear + " to add the no-op agent to");
            }
            Files.copy(ejb, scratch, StandardCopyOption.REPLACE_EXISTING);
            try (FileSystem ejbZip = zip(scratch); FileSystem agent = zip(agentJar);
                 Stream<Path> classes = Files.walk(agent.getPath("/" + AGENT_PACKAGE))) {
                for (Path p : classes.toList()) {
                    Path target = ejbZip.getPath(p.toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Files.copy(scratch, ejb, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(scratch);
        }
    }

    private static FileSystem zip(Path archive) throws IOException {
        return FileSystems.newFileSystem(URI.create("jar:" + archive.toUri()), Map.of());
    }
}
