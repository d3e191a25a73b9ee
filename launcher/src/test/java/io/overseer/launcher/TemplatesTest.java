package io.overseer.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TemplatesTest {

    @Test
    void substitutesKnownPlaceholdersAndKeepsUnknownOnes() {
        String out = Templates.substitute("port=@BROKER_PORT@ dir=@DATA_DIR@ x=@OTHER@ mail=a@b.c",
                Map.of("BROKER_PORT", "61616", "DATA_DIR", "/d/broker/data"));
        assertEquals("port=61616 dir=/d/broker/data x=@OTHER@ mail=a@b.c", out);
        assertEquals(Set.of("OTHER"), Templates.unresolved(out));
    }

    @Test
    void replacementTextIsLiteral() {
        // '$' and '\' mean something to Matcher.appendReplacement; they must come through unchanged.
        assertEquals("p=a$1\\b", Templates.substitute("p=@P@", Map.of("P", "a$1\\b")));
    }

    @Test
    void everyOccurrenceIsReplaced() {
        assertEquals("1 1", Templates.substitute("@A@ @A@", Map.of("A", "1")));
    }

    @Test
    void asadminEscapesColonsEqualsAndBackslashes() {
        assertEquals("jdbc\\:postgresql\\://127.0.0.1\\:55432/overseer",
                Templates.asadminEscape("jdbc:postgresql://127.0.0.1:55432/overseer"));
        assertEquals("a\\=b", Templates.asadminEscape("a=b"));
        assertEquals("x\\\\y", Templates.asadminEscape("x\\y"));
        assertEquals("plain", Templates.asadminEscape("plain"));
    }

    @Test
    void postBootValuesEscapePropertyValuesButNotTheRarPath() {
        AppServerConfig c = new AppServerConfig(8080, "jdbc:postgresql://127.0.0.1:55432/overseer?ssl=false",
                "overseer", "p:w=d", "127.0.0.1", 61616, "demo", "demo", "http://127.0.0.1:8090", Map.of(), null);
        Map<String, String> v = c.postBootValues("/opt/stack/artemis-rar.rar");
        assertEquals("/opt/stack/artemis-rar.rar", v.get("RAR_PATH"));
        assertEquals("jdbc\\:postgresql\\://127.0.0.1\\:55432/overseer?ssl\\=false", v.get("DB_URL"));
        assertEquals("p\\:w\\=d", v.get("DB_PASSWORD"));
        assertEquals("61616", v.get("BROKER_PORT"));
        String filled = Templates.substitute(
                "deploy @RAR_PATH@\ncreate-jdbc-connection-pool --property user=@DB_USER@:password=@DB_PASSWORD@:URL=@DB_URL@ p\n"
                        + "x @BROKER_HOST@ @BROKER_PORT@ @BROKER_USER@ @BROKER_PASSWORD@", v);
        assertTrue(Templates.unresolved(filled).isEmpty(), filled);
        assertEquals("512m", c.maxHeap());
    }

    @Test
    void withAppPropertiesMerges() {
        AppServerConfig c = new AppServerConfig(8080, "u", "u", "p", "h", 1, "u", "p", "r", Map.of("a", "1"), "1g");
        assertEquals(Map.of("a", "2", "b", "3"), c.withAppProperties(Map.of("a", "2", "b", "3")).appProperties());
    }
}
