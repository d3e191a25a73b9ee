package io.overseer.admin;

import java.util.List;

/**
 * What a bulk job acts on: orders matching {@code filter}, or the orders (or dead letters) named in
 * {@code ids}; for a redrive, the dead letters whose original queue is {@code originalQueue} and whose
 * reason contains {@code reasonContains} (each null for any). {@code shown} is the selection as the
 * operator gave it (JSON), kept with the job and in the audit log.
 *
 * <p>A selection that restricts nothing matches everything: a job is refused that unless
 * {@code everything} says the operator meant it.
 */
public record BulkSelection(AdminQueries.Filter filter, List<String> ids, String originalQueue, String reasonContains,
                            boolean everything, String shown) {

    public BulkSelection {
        ids = ids == null ? null : List.copyOf(ids);
    }

    /** Whether it names its targets rather than filtering for them. */
    public boolean named() {
        return ids != null;
    }

    /** Whether it restricts what it matches at all. */
    public boolean restricts() {
        return named() || filter != null && filter.restricts() || originalQueue != null || reasonContains != null;
    }
}
