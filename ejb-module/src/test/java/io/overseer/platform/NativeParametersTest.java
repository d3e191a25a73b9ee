package io.overseer.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;

import jakarta.persistence.Query;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mockito.InOrder;

/** Positional parameters: named in the order they are added, bound to the same positions. */
class NativeParametersTest {

    @Test
    void eachAddedValueIsNamedByItsPosition() {
        List<Object> parameters = new ArrayList<>(List.of("first"));

        assertEquals("?2", NativeParameters.add(parameters, "second"));
        assertEquals("?3", NativeParameters.add(parameters, 3));
        assertEquals(List.of("first", "second", 3), parameters);
    }

    @Test
    void anInListsPlaceholdersStartWhereTheStatementSays() {
        assertEquals("?2,?3,?4", NativeParameters.placeholders(2, 3));
        assertEquals("?1", NativeParameters.placeholders(1, 1));
    }

    @Test
    void valuesAreBoundInOrderFromTheFirstPosition() {
        Query query = mock(Query.class);

        NativeParameters.bind(query, 2, List.of("a", "b"));

        InOrder order = inOrder(query);
        order.verify(query).setParameter(2, "a");
        order.verify(query).setParameter(3, "b");
        order.verifyNoMoreInteractions();
    }
}
