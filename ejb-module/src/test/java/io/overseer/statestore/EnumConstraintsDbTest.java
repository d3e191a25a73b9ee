package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overseer.platform.MigratedDatabase;
import io.overseer.platform.NativeSql;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The enums stored as strings and the CHECK constraints that guard their columns must list the same
 * values: a constant the migrations do not allow fails its first write in production, and a value the
 * migrations allow that no constant names is one the code cannot read back. Read from the migrated
 * database, so a new migration that changes a constraint is checked too. A change to either side needs a
 * migration and the enum changed together.
 */
class EnumConstraintsDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();

    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");

    @Test
    void processStateMatchesTheCheckOnOrderStatesProcessState() throws SQLException {
        assertSame(ProcessState.class, "order_state", "process_state");
    }

    @Test
    void stepStatusMatchesTheCheckOnStepStatesState() throws SQLException {
        assertSame(StepStatus.class, "step_state", "state");
    }

    @Test
    void actorKindMatchesTheCheckOnTheHistorysActor() throws SQLException {
        assertSame(Actor.Kind.class, "order_history", "actor");
    }

    @Test
    void replyToKindMatchesTheCheckOnTheReplyAddresssDestinationType() throws SQLException {
        assertSame(io.overseer.notification.ReplyTo.Kind.class, "order_reply_to", "destination_type");
    }

    private static void assertSame(Class<? extends Enum<?>> type, String table, String column) throws SQLException {
        Set<String> inJava = Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
        Set<String> inSql = allowed(table, column);
        Set<String> onlyJava = new TreeSet<>(inJava);
        onlyJava.removeAll(inSql);
        Set<String> onlySql = new TreeSet<>(inSql);
        onlySql.removeAll(inJava);
        assertEquals("", (onlyJava.isEmpty() ? "" : type.getName() + " has " + onlyJava + " which " + table + "." + column
                + "'s CHECK refuses; ") + (onlySql.isEmpty() ? "" : table + "." + column + "'s CHECK allows " + onlySql
                + " which " + type.getName() + " lacks"));
    }

    /**
     * The values the single CHECK constraint on {@code table.column} lists, as PostgreSQL holds it
     * ({@code pg_get_constraintdef}: {@code CHECK (col IN ('a', 'b'))} is kept as {@code = ANY (ARRAY['a'::text, …])}).
     */
    private static Set<String> allowed(String table, String column) throws SQLException {
        try (Connection c = DB.getTestDatabase().getConnection()) {
            List<String> checks = NativeSql.strings(c, "SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k"
                    + " JOIN pg_class t ON t.oid = k.conrelid JOIN pg_attribute a ON a.attrelid = t.oid"
                    + " AND a.attnum = ANY (k.conkey) WHERE k.contype = 'c' AND t.relname = ?1 AND a.attname = ?2"
                    + " AND t.relnamespace = 'public'::regnamespace", table, column);
            assertEquals(1, checks.size(), "one CHECK on " + table + "." + column + ": " + checks);
            Set<String> values = new TreeSet<>();
            Matcher quoted = QUOTED.matcher(checks.get(0));
            while (quoted.find()) {
                values.add(quoted.group(1));
            }
            return values;
        }
    }
}
