package io.overseer.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The id this server instance writes into LockedBy and lease rows. Unique per process: a restarted
 * instance is a new owner, so nothing it claimed before the restart looks like its own.
 */
@ApplicationScoped
public class InstanceIdentity {

    @Inject
    @ConfigProperty(name = "overseer.instance-id")
    Optional<String> configured;

    private String id;

    public synchronized String id() {
        if (id == null) {
            id = configured.filter(value -> !value.isBlank()).orElseGet(InstanceIdentity::hostAndPid);
        }
        return id;
    }

    private static String hostAndPid() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + ":" + ProcessHandle.current().pid();
    }
}
