package io.overseer.bench.peers;

import java.io.InputStream;
import java.util.Properties;

/**
 * The version of a library as its jar says, so results name what actually ran: Maven's pom.properties,
 * else the manifest's Implementation-Version of a class from it (Gradle-built jars such as JobRunr's).
 */
public final class Versions {

    private Versions() {
    }

    public static String of(String groupId, String artifactId, Class<?> classInJar) {
        String path = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (InputStream in = Versions.class.getClassLoader().getResourceAsStream(path)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null) {
                    return v;
                }
            }
        } catch (Exception e) {
            // fall through to the manifest
        }
        String v = classInJar.getPackage().getImplementationVersion();
        return v != null ? v : "unknown";
    }
}
