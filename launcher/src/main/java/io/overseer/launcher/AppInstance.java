package io.overseer.launcher;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One of the application instances the launcher starts (--instances N): its name, HTTP port, work
 * directory and log file. The first is named as the single instance always was — "payara", work
 * directory {@code DATA/payara}, log {@code DATA/logs/payara.log} — so one instance is exactly what it
 * was before, and the paths the docs and scripts name stay true. The others are payara-2, payara-3, …
 * on the HTTP ports above --http-port. Each needs a work directory of its own: Payara's temporary files
 * and its transaction log live there. Another --runtime names its instances after itself (payara-server:
 * {@code DATA/payara-server}, log {@code DATA/logs/payara-server.log}), so runtimes never share a
 * transaction log or a domain.
 *
 * <p>The application names itself (io.overseer.platform.InstanceIdentity, written into LockedBy, the
 * history and the lease rows) host:pid unless {@value #INSTANCE_ID} is set: unique per process, so two
 * instances never share it and a restarted instance is a new owner. The launcher leaves that default
 * alone. An {@value #INSTANCE_ID} given to the launcher would be one name for N processes, and two
 * holders of one name would both believe they hold the supervisor's lease: instance K ≥ 2 gets it with
 * "-K" appended, as its work directory does.
 *
 * @param number 1..{@link #MAX}
 */
public record AppInstance(int number, String name, int httpPort, Path workDir, Path logFile) {

    /** Most instances one launcher starts: plenty for one machine, and a bound on the port range. */
    public static final int MAX = 16;
    static final String INSTANCE_ID = "overseer.instance-id";

    /** The instances the options ask for, in start order. */
    public static List<AppInstance> plan(LauncherOptions options) {
        List<AppInstance> instances = new ArrayList<>();
        for (int number = 1; number <= options.instances(); number++) {
            instances.add(of(options.runtime(), number, options.httpPort(), options.dataDir()));
        }
        return List.copyOf(instances);
    }

    /** Instance {@code number} of Payara Micro. */
    static AppInstance of(int number, int firstHttpPort, Path dataDir) {
        return of(AppRuntime.PAYARA_MICRO, number, firstHttpPort, dataDir);
    }

    static AppInstance of(AppRuntime runtime, int number, int firstHttpPort, Path dataDir) {
        if (number < 1 || number > MAX) {
            throw new IllegalArgumentException("instance number " + number + " outside 1.." + MAX);
        }
        String name = runtime.instanceBaseName() + suffix(number);
        return new AppInstance(number, name, firstHttpPort + number - 1, dataDir.resolve(name),
                dataDir.resolve("logs").resolve(name + ".log"));
    }

    /**
     * Every work directory an earlier launcher on {@code dataDir} may have used, whatever its --instances:
     * a leftover of one that was kill -9'd is found by these and stopped before anything starts.
     */
    static List<Path> allWorkDirs(Path dataDir) {
        return allWorkDirs(dataDir, AppRuntime.PAYARA_MICRO);
    }

    /** As {@link #allWorkDirs(Path)} for the instances of {@code runtime}. */
    static List<Path> allWorkDirs(Path dataDir, AppRuntime runtime) {
        List<Path> dirs = new ArrayList<>();
        for (int number = 1; number <= MAX; number++) {
            dirs.add(dataDir.resolve(runtime.instanceBaseName() + suffix(number)));
        }
        return dirs;
    }

    /** The application properties of this instance: the shared ones, with a configured instance id made its own. */
    Map<String, String> appProperties(Map<String, String> shared) {
        Map<String, String> own = new LinkedHashMap<>(shared);
        String id = shared.get(INSTANCE_ID);
        if (id != null && !id.isBlank()) {
            own.put(INSTANCE_ID, id + suffix(number));
        }
        return own;
    }

    private static String suffix(int number) {
        return number == 1 ? "" : "-" + number;
    }
}
