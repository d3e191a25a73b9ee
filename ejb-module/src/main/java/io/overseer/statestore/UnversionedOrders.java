package io.overseer.statestore;

import io.overseer.workflow.WorkflowDefinition;
import io.overseer.workflow.WorkflowDeployed;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * Pins the unfinished orders stored before workflow versions (V12) to the definition deployed now
 * ({@link StateStore#pinUnversioned}), in a transaction of its own, as each definition is deployed.
 */
@Stateless
public class UnversionedOrders {

    private static final Logger LOG = Logger.getLogger(UnversionedOrders.class.getName());

    @Inject
    StateStore store;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void pin(@Observes WorkflowDeployed deployed) {
        WorkflowDefinition definition = deployed.definition();
        int pinned = store.pinUnversioned(definition.name(), definition.version());
        if (pinned > 0) {
            LOG.info(() -> pinned + " unfinished " + definition.name() + " orders stored before versions now run "
                    + definition.label());
        }
    }
}
