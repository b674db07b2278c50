package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DatabaseTest {

    @Test
    void exactlyOneOfUrlAndFolderIsRequired() {
        IllegalArgumentException none = assertThrows(
                IllegalArgumentException.class, () -> Database.builder().build());
        assertTrue(none.getMessage().contains("exactly one"), none.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Database.builder()
                        .url("jdbc:postgresql://h/db")
                        .embedded(Path.of("x"))
                        .build());
    }

    @Test
    void onlyPostgresqlUrlsAreAccepted() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Database.url("jdbc:mysql://h/db"));
        assertTrue(e.getMessage().contains("jdbc:mysql://h/db"), e.getMessage());
    }

    @Test
    void poolSizeAndTimeoutAreBounded() {
        assertThrows(
                IllegalArgumentException.class,
                () -> Database.builder().embedded(Path.of("x")).poolSize(0).build());
        assertThrows(
                IllegalArgumentException.class,
                () -> Database.builder()
                        .embedded(Path.of("x"))
                        .connectionTimeout(Duration.ofMillis(10))
                        .build());
        Database d = Database.builder().embedded(Path.of("x")).poolSize(7).build();
        assertEquals(7, d.poolSize());
        assertTrue(d.durableCommits());
    }

    @Test
    void admissionsShareCommitsByDefaultAndCanBeTurnedOff() {
        assertTrue(Database.builder().embedded(Path.of("x")).build().admissionGroupCommit());
        assertFalse(Database.builder()
                .embedded(Path.of("x"))
                .admissionGroupCommit(false)
                .build()
                .admissionGroupCommit());
    }

    @Test
    void admissionQueuesTakeHalfThePoolTheChargeWorkersLeaveAndAtMostThePool() {
        assertEquals(4, Database.builder().embedded(Path.of("x")).build().admissionQueues());
        assertEquals(
                1, Database.builder().embedded(Path.of("x")).poolSize(2).build().admissionQueues());
        assertEquals(
                3,
                Database.builder()
                        .embedded(Path.of("x"))
                        .admissionQueues(3)
                        .build()
                        .admissionQueues());
        assertThrows(IllegalArgumentException.class, () -> Database.builder().admissionQueues(0));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Database.builder()
                        .embedded(Path.of("x"))
                        .poolSize(4)
                        .admissionQueues(5)
                        .build());
        assertEquals("admission queues 5 must be at most the pool size 4", e.getMessage());
    }

    @Test
    void groupCommitHasOneWorkerByDefaultAndAtMostThePoolSize() {
        Database d = Database.builder().embedded(Path.of("x")).build();
        assertTrue(d.groupCommit());
        assertEquals(1, d.groupCommitWorkers());
        Database off =
                Database.builder().embedded(Path.of("x")).groupCommit(false).build();
        assertFalse(off.groupCommit());
        assertEquals(0, off.groupCommitWorkers());
        assertEquals(
                4,
                Database.builder()
                        .embedded(Path.of("x"))
                        .poolSize(4)
                        .groupCommitWorkers(4)
                        .build()
                        .groupCommitWorkers());
        assertEquals(
                3,
                Database.builder()
                        .embedded(Path.of("x"))
                        .groupCommitWorkers(3)
                        .groupCommit(true)
                        .build()
                        .groupCommitWorkers(),
                "turning group commit on keeps the workers already set");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Database.builder()
                        .embedded(Path.of("x"))
                        .poolSize(4)
                        .groupCommitWorkers(5)
                        .build());
        assertTrue(e.getMessage().contains("group-commit workers 5"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> Database.builder()
                        .embedded(Path.of("x"))
                        .groupCommitWorkers(-1)
                        .build());
    }

    @Test
    void toStringHidesThePassword() {
        String shown =
                Database.url("jdbc:postgresql://h/db?user=u&password=s3cret").toString();
        assertFalse(shown.contains("s3cret"), shown);
    }
}
