package io.overseer.platform;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test's code logs to one logger, for the test to assert on: each test's own records
 * ({@code @RegisterExtension}), listening from before it to after it.
 */
public final class CapturedLog extends Handler implements BeforeEachCallback, AfterEachCallback {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public CapturedLog(Logger logger) {
        this.logger = logger;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        records.clear();
        logger.addHandler(this);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        logger.removeHandler(this);
    }

    /** The records so far, oldest first. */
    public List<LogRecord> records() {
        return records;
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
