package io.overseer.admin;

import io.overseer.platform.Database;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * How big the state store is: each table of the application's schema with its live and dead rows and its
 * bytes (the table with its TOAST, and its indexes), and the oldest finished order (Processed or
 * Compensated: what a retention removes first). Rows are PostgreSQL's statistics (estimates, as autovacuum
 * and ANALYZE keep them) and bytes its catalog, so a read costs no scan whatever the tables hold; the oldest
 * order is one step along the finished-orders index. Nothing here grows with the store.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class StoreSize {

    /** One table: rows live and dead, bytes of the table (TOAST included) and of its indexes. */
    @JsonbPropertyOrder({"table", "rows", "deadRows", "tableBytes", "indexBytes"})
    public record Table(String table, long rows, long deadRows, long tableBytes, long indexBytes) {
    }

    /** Every table, their bytes together, and the oldest finished order's last transition (null: none). */
    @JsonbPropertyOrder({"tables", "totalBytes", "oldestFinished"})
    @JsonbNillable
    public record Size(List<Table> tables, long totalBytes, OffsetDateTime oldestFinished) {
    }

    static final String TABLES_SQL = "SELECT relname::text, n_live_tup, n_dead_tup, pg_table_size(relid), pg_indexes_size(relid)"
            + " FROM pg_stat_user_tables WHERE schemaname = current_schema() ORDER BY relname";
    /** On order_state_finished (V10), whose predicate this one implies. */
    static final String OLDEST_FINISHED_SQL = "SELECT min(updated_at) FROM order_state"
            + " WHERE process_state IN ('Processed', 'Compensated')";

    @PersistenceContext(unitName = "overseer")
    EntityManager em;

    @SuppressWarnings("unchecked")
    public Size size() {
        List<Table> tables = new ArrayList<>();
        long total = 0;
        for (Object[] row : (List<Object[]>) em.createNativeQuery(TABLES_SQL).getResultList()) {
            Table table = new Table((String) row[0], number(row[1]), number(row[2]), number(row[3]), number(row[4]));
            tables.add(table);
            total += table.tableBytes() + table.indexBytes();
        }
        Object oldest = em.createNativeQuery(OLDEST_FINISHED_SQL).getSingleResult();
        return new Size(tables, total, oldest == null ? null : Database.utc(oldest));
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
