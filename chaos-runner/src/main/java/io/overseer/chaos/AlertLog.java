package io.overseer.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The alerts the application servers logged ("ALERT kind for order id: reason", AlertPublisher), read from
 * their log files: a second witness beside the alerts topic, since an alert logged by a server killed before
 * it could publish is still an alert an operator would see in the log.
 */
final class AlertLog {

    private static final Pattern ALERT = Pattern.compile("ALERT \\S+ for order (\\S+?):");

    private AlertLog() {
    }

    static Set<String> alertedOrders(Path logDir) throws IOException {
        Set<String> orders = new HashSet<>();
        try (Stream<Path> files = Files.list(logDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("payara")).toList()) {
                try (Stream<String> lines = Files.lines(f, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                    lines.forEach(line -> {
                        Matcher m = ALERT.matcher(line);
                        if (m.find()) {
                            orders.add(m.group(1));
                        }
                    });
                }
            }
        }
        return orders;
    }
}
