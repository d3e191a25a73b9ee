package io.overseer.support;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The archive Arquillian deploys: the very WAR ./run and users deploy on Payara Micro. */
public final class Deployments {

    private Deployments() {
    }

    public static WebArchive overseerWar() {
        return ShrinkWrap.create(ZipImporter.class, "overseer.war")
                .importFrom(new File(TestStack.stackFile("overseer.war")))
                .as(WebArchive.class);
    }
}
