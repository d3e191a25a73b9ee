package io.overseer.statestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * The persistence unit turns the provider's entity validation off (validation-mode NONE: it walked every
 * flushed entity for constraints none has). That holds only while no entity carries a Bean Validation
 * constraint: one added later would be silently ignored, so this fails instead.
 */
class PersistenceUnitTest {

    @Test
    void noEntityCarriesAConstraintTheUnitWouldIgnore() throws Exception {
        Document unit;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/persistence.xml")) {
            unit = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
        assertEquals("NONE", unit.getElementsByTagName("validation-mode").item(0).getTextContent().trim());
        NodeList classes = unit.getElementsByTagName("class");
        assertTrue(classes.getLength() > 5, "the unit lists its entities");
        List<String> constrained = new ArrayList<>();
        for (int i = 0; i < classes.getLength(); i++) {
            Class<?> type = Class.forName(classes.item(i).getTextContent().trim());
            Stream.of(Stream.<AnnotatedElement>of(type), Stream.of(type.getDeclaredFields()), Stream.of(type.getDeclaredMethods()))
                    .flatMap(s -> s)
                    .filter(PersistenceUnitTest::constrained)
                    .forEach(element -> constrained.add(type.getSimpleName() + ": " + element));
        }
        assertTrue(constrained.isEmpty(), "validation-mode NONE would ignore these constraints: " + constrained);
    }

    @Test
    void theCheckSeesAConstraint() throws Exception {
        assertTrue(constrained(Constrained.class.getDeclaredField("name")), "a @NotNull field is seen as constrained");
    }

    private static boolean constrained(AnnotatedElement element) {
        for (Annotation annotation : element.getAnnotations()) {
            String name = annotation.annotationType().getName();
            if (name.startsWith("jakarta.validation.") || annotation.annotationType().isAnnotationPresent(jakarta.validation.Constraint.class)) {
                return true;
            }
        }
        return false;
    }

    static final class Constrained {
        @jakarta.validation.constraints.NotNull
        String name;
    }
}
