package io.overseer.platform;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * A data source that counts what its connections send PostgreSQL, for tests that assert what an operation
 * costs (counted, not timed): every statement executed — each statement of a JDBC batch counts, as
 * PostgreSQL executes (and pg_stat_statements counts) each — and every commit. The SQL of each statement
 * is kept, so that a failing count says which statements ran.
 */
public final class CountedDataSource {

    private static final Set<String> EXECUTES = Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate");

    private final List<String> statements = new ArrayList<>();
    private int commits;
    private final DataSource counted;

    public CountedDataSource(DataSource target) {
        this.counted = proxy(DataSource.class, target, (method, args, result) -> method.getName().equals("getConnection")
                ? proxy(Connection.class, result, this::onConnection) : result);
    }

    public DataSource dataSource() {
        return counted;
    }

    /** Forgets what was counted so far. */
    public synchronized void reset() {
        statements.clear();
        commits = 0;
    }

    public synchronized List<String> statements() {
        return List.copyOf(statements);
    }

    public synchronized int commits() {
        return commits;
    }

    private Object onConnection(Method method, Object[] args, Object result) {
        String name = method.getName();
        if (name.equals("commit")) {
            synchronized (this) {
                commits++;
            }
        }
        if (result instanceof Statement statement && (name.startsWith("prepare") || name.equals("createStatement"))) {
            String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : null;
            Class<?> type = name.equals("prepareCall") ? java.sql.CallableStatement.class
                    : name.equals("prepareStatement") ? java.sql.PreparedStatement.class : Statement.class;
            return proxy(type, statement, (m, a, r) -> onStatement(sql, m, a, r));
        }
        return result;
    }

    private Object onStatement(String prepared, Method method, Object[] args, Object result) {
        String name = method.getName();
        String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : prepared;
        synchronized (this) {
            if (EXECUTES.contains(name)) {
                statements.add(sql);
            } else if (name.equals("addBatch")) { // executeBatch sends them, one statement each
                statements.add(sql);
            }
        }
        return result;
    }

    @FunctionalInterface
    private interface After {
        Object apply(Method method, Object[] args, Object result) throws Exception;
    }

    private static <T> T proxy(Class<T> type, Object target, After after) {
        InvocationHandler handler = (proxy, method, args) -> {
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return after.apply(method, args, result);
        };
        return type.cast(Proxy.newProxyInstance(CountedDataSource.class.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
