package io.overseer.api;

import jakarta.ws.rs.core.SecurityContext;

/**
 * Who acts, as every operator action records it (the order's history, the audit log, a bulk job): the
 * authenticated user's name. Each action's URL requires a role (web.xml), so a principal is always there.
 */
final class Operators {

    private Operators() {
    }

    static String name(SecurityContext security) {
        return security.getUserPrincipal().getName();
    }
}
