import java.sql.*;
import java.util.*;

/**
 * Inserts one row every 20 ms through a (multi-host) JDBC URL for the given seconds, reconnecting after any
 * failure; prints how long inserts failed and which acknowledged rows the database reached at the end lacks.
 * Run by run.sh as a single-file program: java -cp postgresql.jar FailoverProbe.java URL SECONDS
 */
public class FailoverProbe {
    public static void main(String[] a) throws Exception {
        String url = a[0];
        long seconds = Long.parseLong(a[1]);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long ok = 0, failed = 0, lastOk = System.nanoTime(), longest = 0; long firstFail = 0;
        Connection c = null;
        Set<Long> acked = new TreeSet<>();
        long seq = 0;
        boolean recovered = false;
        while (System.nanoTime() < end) {
            seq++;
            try {
                if (c == null) {
                    c = DriverManager.getConnection(url, "postgres", "");
                    c.setAutoCommit(true);
                }
                try (PreparedStatement s = c.prepareStatement("INSERT INTO probe(id) VALUES (?)")) {
                    s.setLong(1, seq);
                    s.executeUpdate();
                }
                acked.add(seq);
                long now = System.nanoTime();
                if (firstFail != 0 && !recovered) {
                    recovered = true;
                    System.out.println("first insert acked " + (now - firstFail) / 1_000_000 + " ms after the first failure");
                }
                longest = Math.max(longest, now - lastOk);
                lastOk = now;
                ok++;
            } catch (SQLException e) {
                failed++;
                if (firstFail == 0) { firstFail = System.nanoTime(); System.out.println("first failure: " + e.getMessage()); }
                try { if (c != null) c.close(); } catch (SQLException ignored) {}
                c = null;
            }
            Thread.sleep(20);
        }
        System.out.println("acked " + ok + " failed attempts " + failed + " longest gap between acked inserts " + longest / 1_000_000 + " ms");
        // Which acked rows survive on the database the URL now reaches
        try (Connection d = DriverManager.getConnection(url, "postgres", "");
             Statement s = d.createStatement(); ResultSet r = s.executeQuery("SELECT id FROM probe")) {
            Set<Long> present = new HashSet<>();
            while (r.next()) present.add(r.getLong(1));
            long lost = acked.stream().filter(id -> !present.contains(id)).count();
            System.out.println("acked rows missing after failover: " + lost + " of " + acked.size());
        }
    }
}
