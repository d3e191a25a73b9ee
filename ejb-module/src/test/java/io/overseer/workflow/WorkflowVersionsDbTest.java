package io.overseer.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.overseer.platform.JpaDatabase;
import io.overseer.platform.MigratedDatabase;
import io.zonky.test.db.postgres.junit5.PreparedDbExtension;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link WorkflowVersions}' listing of the stored versions, on PostgreSQL with the migrations. */
class WorkflowVersionsDbTest {

    @RegisterExtension
    static final PreparedDbExtension DB = MigratedDatabase.extension();
    @RegisterExtension
    static final JpaDatabase jpa = JpaDatabase.forClass(DB::getTestDatabase);

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 28, 6, 0, 0, 0, ZoneOffset.UTC);
    private final WorkflowParser parser = new WorkflowParser(Duration.ofSeconds(30), 3);

    @Test
    void storedListsEveryVersionByWorkflowOldestFirstInUtcAndRecordingTwiceStoresOnce() throws Exception {
        WorkflowDefinition older = parser.parseOne("{\"name\":\"b\",\"steps\":[{\"name\":\"one\"}]}", "t");
        WorkflowDefinition newer = parser.parseOne("{\"name\":\"b\",\"steps\":[{\"name\":\"one\"},{\"name\":\"two\"}]}", "t");
        WorkflowDefinition other = parser.parseOne("{\"name\":\"a\",\"steps\":[{\"name\":\"one\"}]}", "t");
        record(newer, T0.plusHours(1));
        record(older, T0);
        record(other, T0.plusHours(2).withOffsetSameInstant(ZoneOffset.ofHours(2)));
        record(older, T0.plusHours(3)); // a version's row is written once

        List<WorkflowVersions.Stored> stored = jpa.inTransaction(em -> versions(em).stored());

        assertEquals(List.of(new WorkflowVersions.Stored("a", other.version(), T0.plusHours(2)),
                new WorkflowVersions.Stored("b", older.version(), T0),
                new WorkflowVersions.Stored("b", newer.version(), T0.plusHours(1))), stored);
    }

    private void record(WorkflowDefinition definition, OffsetDateTime at) throws Exception {
        jpa.inTransaction(em -> {
            versions(em).record(definition, at);
            return null;
        });
    }

    private static WorkflowVersions versions(jakarta.persistence.EntityManager em) {
        WorkflowVersions versions = new WorkflowVersions();
        versions.em = em;
        return versions;
    }
}
