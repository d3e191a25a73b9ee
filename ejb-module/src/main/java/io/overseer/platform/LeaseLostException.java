package io.overseer.platform;

import jakarta.ejb.ApplicationException;

/**
 * The lease a write relied on has passed to another tenure (another holder, or a lapsed lease taken
 * again): the write must not happen. Expected whenever a holder was paused past its lease, so checked;
 * it rolls the transaction back, so nothing written before the check commits either.
 */
@ApplicationException(rollback = true)
public class LeaseLostException extends Exception {

    private static final long serialVersionUID = 1L;

    public LeaseLostException(HeldLease lease) {
        super("lease " + lease.job() + " is no longer held by " + lease.holder() + " at epoch " + lease.epoch());
    }
}
