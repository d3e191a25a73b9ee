package io.overseer.support;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The archive Arquillian deploys: the very WAR ./run and users deploy on Payara Micro. */
public final class Deployments {

    private Deployments() {
    }

    /** The WAR with these MicroProfile Config lines added to the application's own. */
    public static WebArchive withConfig(WebArchive war, String properties) {
        String path = "WEB-INF/classes/META-INF/microprofile-config.properties";
        String existing = "";
        if (war.contains(path)) {
            try (InputStream in = war.get(path).getAsset().openStream()) {
                existing = new String(in.readAllBytes(), StandardCharsets.UTF_8) + System.lineSeparator();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            war.delete(path);
        }
        return war.add(new StringAsset(existing + properties), path);
    }

    public static WebArchive overseerWar() {
        return ShrinkWrap.create(ZipImporter.class, "overseer.war")
                .importFrom(new File(TestStack.stackFile("overseer.war")))
                .as(WebArchive.class);
    }
}
