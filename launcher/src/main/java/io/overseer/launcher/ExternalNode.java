package io.overseer.launcher;

/**
 * A component of the user's own (a database at {@code --db-url}, a broker at {@code --broker-host}): nothing
 * of it runs here, so the stack's start, stop and kill leave it alone, and it has no process to watch.
 */
interface ExternalNode extends Node {

    @Override
    default void start() {
        // not ours to start
    }

    @Override
    default void stop() {
        // not ours to stop
    }

    @Override
    default void kill9() {
        // not ours to kill
    }

    /** Nothing of it runs here. */
    @Override
    default boolean isAlive() {
        return false;
    }

    @Override
    default long pid() {
        return -1;
    }
}
