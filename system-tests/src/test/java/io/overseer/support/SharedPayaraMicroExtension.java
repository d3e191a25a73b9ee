package io.overseer.support;

import fish.payara.arquillian.container.payara.managed.PayaraMicroDeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Puts {@link SharedPayaraMicro} in place of the Payara Micro connector's container, so arquillian.xml and
 * the test classes stay as they are (registered in {@code META-INF/services}).
 */
public final class SharedPayaraMicroExtension implements LoadableExtension {

    @Override
    public void register(ExtensionBuilder builder) {
        builder.override(DeployableContainer.class, PayaraMicroDeployableContainer.class, SharedPayaraMicro.class);
    }
}
