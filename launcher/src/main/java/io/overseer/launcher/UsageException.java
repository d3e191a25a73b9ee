package io.overseer.launcher;

/** A command line or environment setting the launcher cannot use; Main turns it into exit code 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
