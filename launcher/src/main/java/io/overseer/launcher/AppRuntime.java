package io.overseer.launcher;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The application servers ./run can start (--runtime). Each names its node class, its instances' base
 * name (work directory DATA/NAME, log DATA/logs/NAME.log) and the label log lines use. To add one, give it
 * a {@link Factory} (its node's constructor) here, and the parser accepts it.
 */
public enum AppRuntime {

    /** The WAR on Payara Micro: the default, and the only runtime of several instances so far. */
    PAYARA_MICRO("payara-micro", "Payara Micro", AppServerNode.DEFAULT_NAME, PayaraMicroNode::new),
    /** The EAR on a Payara Server 6 domain of its own. */
    PAYARA_SERVER("payara-server", "Payara Server", "payara-server", PayaraServerNode::new),
    /** The EAR on WildFly 39 (standalone-full), configured by server-config/wildfly's scripts. */
    WILDFLY("wildfly", "WildFly", "wildfly", WildFlyNode::new);

    /** How a runtime's node is made: the constructor of its {@link AppServerNode} subclass. */
    @FunctionalInterface
    public interface Factory {
        AppServerNode create(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config);
    }

    private final String id;
    private final String label;
    private final String instanceBaseName;
    private final Factory factory;

    AppRuntime(String id, String label, String instanceBaseName, Factory factory) {
        this.id = id;
        this.label = label;
        this.instanceBaseName = instanceBaseName;
        this.factory = factory;
    }

    /** What --runtime says: payara-micro, payara-server, wildfly. */
    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    /** The first instance's name; instance K ≥ 2 is this with "-K". */
    public String instanceBaseName() {
        return instanceBaseName;
    }

    /** A node of this runtime. */
    public AppServerNode newNode(StackLayout layout, String name, Path workDir, Path logFile, AppServerConfig config) {
        return factory.create(layout, name, workDir, logFile, config);
    }

    /** The runtime --runtime names, case-insensitively; null when none has that id. */
    public static AppRuntime byId(String id) {
        for (AppRuntime r : values()) {
            if (r.id.equals(id.trim().toLowerCase(Locale.ROOT))) {
                return r;
            }
        }
        return null;
    }

    /** "payara-micro|payara-server|wildfly", for --help and error messages. */
    public static String ids() {
        return Arrays.stream(values()).map(AppRuntime::id).collect(Collectors.joining("|"));
    }
}
