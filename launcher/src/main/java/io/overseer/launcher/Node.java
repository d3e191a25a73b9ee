package io.overseer.launcher;

/**
 * One component of the stack. start() returns only once the component is ready (or throws with its last
 * log lines); stop() is graceful; kill9() simulates a crash. All are safe to call twice.
 */
public interface Node extends AutoCloseable {

    String name();

    void start() throws Exception;

    void stop();

    void kill9();

    boolean isAlive();

    /** Pid of the main process, or -1 when not running. */
    long pid();

    default void restart() throws Exception {
        stop();
        start();
    }

    @Override
    default void close() {
        stop();
    }
}
