package io.overseer.api;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Slows password guessing on the HTTP API (security issue 16): failed logins are counted per user name and
 * per client address ({@link LoginThrottle}), and past a limit every attempt of that user or from that
 * address — right password or wrong — gets a 429 problem with Retry-After until its wait is over, so a
 * guesser learns nothing while it waits. Per address, so one machine cannot try many users; per user, so
 * many machines cannot try one user fast (the user then waits at most
 * {@code overseer.login.max-wait-seconds} after the guessing stops).
 *
 * <p>The container checks passwords before the application sees a request, so the two ends are:
 * {@link LoginThrottleFilter} (an authenticated request, refused while its user or address waits) and
 * {@link SecurityProblemServlet} (the container's 401, counted here). The client address is the TCP peer:
 * behind a proxy it is the proxy's, and only the per-user limit tells clients apart (see SECURITY.md).
 */
@ApplicationScoped
public class FailedLogins {

    private static final Logger LOG = Logger.getLogger(FailedLogins.class.getName());
    /** Failed logins counted, and attempts refused while waiting by the key that waits ({@code user}, {@code address}). */
    static final String FAILURES = "overseer.login.failures";
    static final String REFUSED = "overseer.logins.refused";

    @Inject
    @ConfigProperty(name = "overseer.login.max-failures-per-user", defaultValue = "10")
    int maxPerUser;
    @Inject
    @ConfigProperty(name = "overseer.login.max-failures-per-address", defaultValue = "20")
    int maxPerAddress;
    @Inject
    @ConfigProperty(name = "overseer.login.max-wait-seconds", defaultValue = "60")
    int maxWaitSeconds;
    @Inject
    MeterRegistry metrics;

    private final LoginThrottle throttle = new LoginThrottle(System::nanoTime);
    private final Map<String, BurstLog> refusals = new ConcurrentHashMap<>();
    private LoginThrottle.Policy perUser;
    private LoginThrottle.Policy perAddress;

    @PostConstruct
    void configure() {
        long maxWait = maxWaitSeconds * 1000L;
        long forget = Math.max(maxWait, 15 * 60_000L);
        perUser = new LoginThrottle.Policy(maxPerUser, 1000, maxWait, forget);
        perAddress = new LoginThrottle.Policy(maxPerAddress, 1000, maxWait, forget);
    }

    /** Seconds {@code user} or {@code address} must still wait (the longer), 0 if neither waits; counted if not 0. */
    long refusal(String user, String address) {
        return verdict(throttle.waitMillis(userKey(user)), throttle.waitMillis(addressKey(address)), user, address);
    }

    /** A wrong password (or unknown user): counted; the seconds the caller must now wait, 0 if none. */
    long failed(String user, String address) {
        metrics.counter(FAILURES).increment();
        return verdict(throttle.failed(userKey(user), perUser), throttle.failed(addressKey(address), perAddress),
                user, address);
    }

    /** The user logged in (while not waiting): its own failures are forgotten, its address's are not. */
    void succeeded(String user) {
        throttle.succeeded(userKey(user));
    }

    /** The longer of the two waits in whole seconds, 0 if neither waits; a wait is counted and logged by the key that set it. */
    private long verdict(long byUserMillis, long byAddressMillis, String user, String address) {
        if (byUserMillis == 0 && byAddressMillis == 0) {
            return 0;
        }
        refused(byUserMillis >= byAddressMillis ? "user" : "address", user, address);
        return seconds(Math.max(byUserMillis, byAddressMillis));
    }

    private void refused(String by, String user, String address) {
        metrics.counter(REFUSED, "by", by).increment();
        refusals.computeIfAbsent(by, b -> new BurstLog(LOG, "Login attempts refused while waiting after failed"
                + " logins")).log("by " + by + " (user " + abbreviate(user) + ", address " + address + ")");
    }

    private static long seconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }

    private static String userKey(String user) {
        return "user:" + user;
    }

    private static String addressKey(String address) {
        return "address:" + address;
    }

    private static String abbreviate(String user) {
        return user.length() <= 64 ? user : user.substring(0, 64) + "…";
    }
}
