package io.overseer.platform;

/**
 * One tenure of a {@link JobLease}: who holds which job's lease, and the epoch (fencing token) of this
 * tenure. Whatever the holder writes under the lease carries it to {@link JobLease#fence}.
 */
public record HeldLease(String job, String holder, long epoch) {
}
