package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.calls.Integration;
import dev.cadastro.providers.calls.WavRecording;
import dev.cadastro.server.cli.CliRuns.Run;
import dev.cadastro.store.Database;
import dev.cadastro.store.EmbeddedDatabase;
import dev.cadastro.store.Store;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./cadastro calls import} in-process against a real embedded PostgreSQL and a real files folder. */
class CallsImportCommandTest {
    private static EmbeddedDatabase server;
    private static String url;

    @TempDir
    Path dir;

    @BeforeAll
    static void startDatabase() throws Exception {
        server = EmbeddedDatabase.start(Files.createTempDirectory(Path.of("target"), "calls-import-pg-"), false);
        url = server.jdbcUrl();
    }

    @AfterAll
    static void stopDatabase() {
        server.close();
    }

    private static <T> T withStore(Function<Store, T> f) {
        try (Store store = Store.open(Database.url(url), Clock.systemUTC())) {
            return f.apply(store);
        }
    }

    private static Integration integration(String name) {
        return withStore(s -> s.callTokens().create(name).integration());
    }

    private Run importing(Path file, String integration) {
        List<String> args = new ArrayList<>(List.of(
                "calls",
                "import",
                file.toString(),
                "--integration",
                integration,
                "--database",
                url,
                "--files",
                dir.resolve("files").toString()));
        return CliRuns.inProcess(args);
    }

    private static String line(String id, String classified, String code, String description, boolean archived) {
        return "{\"id\":\"" + id + "\",\"funcionario_id\":\"1001\",\"funcionario_nome\":\"Joao Silva\","
                + "\"agente\":\"joao.silva\",\"fila\":\"vendas\",\"datahistorico\":\"" + classified + "\","
                + "\"horario_inicio\":\"2026-11-24T10:00:00\",\"duracao_gravacao\":2,"
                + "\"ocorrencia_codigo\":" + (code == null ? "null" : "\"" + code + "\"")
                + ",\"ocorrencia_descricao\":\"" + description + "\",\"ramal\":4021"
                + (archived ? ",\"gravacao\":\"rec/" + id + ".wav\",\"arquivada_em\":\"2026-11-24T10:30:00\"" : "")
                + "}";
    }

    private Path file(String name, String... lines) throws Exception {
        Files.createDirectories(dir.resolve("rec"));
        for (String id : List.of("imp-1", "imp-2", "imp-3")) {
            try (OutputStream out = Files.newOutputStream(dir.resolve("rec/" + id + ".wav"))) {
                WavRecording.writeTones(out, 2, id.hashCode());
            }
        }
        return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    }

    private static Optional<CallRecord> find(Integration i, String id) {
        return withStore(s -> s.calls().find(i.id(), id));
    }

    @Test
    void importsOnceThenChangesNothingThenTakesAReclassification() throws Exception {
        Integration acme = integration("acme-import");
        Path first = file(
                "first.jsonl",
                line("imp-1", "2026-11-24T10:15:30.000001", "V01", "Venda realizada", true),
                line("imp-2", "2026-11-24T10:15:30.000001", null, "Dúvida esclarecida", true),
                line("imp-3", "2026-11-24T10:16:00", "V02", "Cliente sem interesse", false));

        Run run = importing(first, "acme-import");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("3 calls read"), run.out());
        assertTrue(run.out().contains("3 inserted, 0 reclassified"), run.out());
        assertTrue(run.out().contains("2 recordings copied"), run.out());
        assertTrue(Files.size(dir.resolve("files/calls/" + acme.id() + "/imp-1.wav")) == WavRecording.fileSize(2));
        CallRecord one = find(acme, "imp-1").orElseThrow();
        assertEquals(Instant.parse("2026-11-24T13:15:30.000001Z"), one.classifiedAt());
        assertEquals(Instant.parse("2026-11-24T13:30:00Z"), one.archivedAt());
        assertEquals(null, find(acme, "imp-2").orElseThrow().resultCode());
        assertEquals(null, find(acme, "imp-3").orElseThrow().archivedAt());

        Run again = importing(first, "acme-import");
        assertEquals(0, again.status(), again.err());
        assertTrue(again.out().contains("0 inserted, 0 reclassified, 0 archived, 3 unchanged"), again.out());
        assertEquals(one, find(acme, "imp-1").orElseThrow());

        Path later = file(
                "later.jsonl",
                line("imp-1", "2026-11-24T11:00:00", "V03", "Retornar ligação", true),
                line("imp-3", "2026-11-24T10:16:00", "V02", "Cliente sem interesse", true));
        Run update = importing(later, "acme-import");
        assertEquals(0, update.status(), update.err());
        assertTrue(update.out().contains("0 inserted, 1 reclassified, 1 archived"), update.out());
        CallRecord reclassified = find(acme, "imp-1").orElseThrow();
        assertEquals("Retornar ligação", reclassified.resultDescription());
        assertEquals("V03", reclassified.resultCode());
        assertEquals(Instant.parse("2026-11-24T14:00:00Z"), reclassified.classifiedAt());
        assertTrue(find(acme, "imp-3").orElseThrow().ready());
    }

    @Test
    void importsRecordingsIntoABucket() throws Exception {
        Integration acme = integration("acme-bucket");
        Path file = file("bucket.jsonl", line("imp-1", "2026-11-24T10:15:30", "V01", "Venda realizada", true));
        // Credentials from the SDK's default chain: here its system properties, the fixture's test keys.
        System.setProperty("aws.accessKeyId", dev.cadastro.s3.testing.S3ProxyFixture.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", dev.cadastro.s3.testing.S3ProxyFixture.SECRET_KEY);
        try (var s3 = dev.cadastro.s3.testing.S3ProxyFixture.start(dir.resolve("s3"))) {
            s3.createBucket("recordings");
            Run run = CliRuns.inProcess(
                    "calls",
                    "import",
                    file.toString(),
                    "--integration",
                    "acme-bucket",
                    "--database",
                    url,
                    "--files",
                    "s3://recordings/calls-import",
                    "--s3-endpoint",
                    s3.endpoint().toString());
            assertEquals(0, run.status(), run.err());
            assertTrue(run.out().contains("1 recordings copied"), run.out());
            try (var client = s3.connection().client()) {
                long stored = client.headObject(
                                r -> r.bucket("recordings").key("calls-import/calls/" + acme.id() + "/imp-1.wav"))
                        .contentLength();
                assertEquals((long) WavRecording.fileSize(2), stored);
            }
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
        assertTrue(find(acme, "imp-1").orElseThrow().ready());
    }

    @Test
    void aBadLineImportsNothingAndNamesTheLineAndTheField() throws Exception {
        Integration other = integration("acme-bad");
        Path bad = file(
                "bad.jsonl",
                line("imp-1", "2026-11-24T10:15:30", "V01", "Venda realizada", true),
                line("imp-2", "2026-11-24T10:15:30", "V01", "Venda realizada", true)
                        .replace("\"duracao_gravacao\":2", "\"duracao_gravacao\":-1"));
        Run run = importing(bad, "acme-bad");
        assertEquals(Cli.FAILURE, run.status());
        assertTrue(run.err().contains("line 2: field duracao_gravacao -1 must be a whole number"), run.err());
        assertTrue(run.err().contains("nothing was imported"), run.err());
        assertTrue(find(other, "imp-1").isEmpty());
        assertFalse(Files.exists(dir.resolve("files/calls/" + other.id() + "/imp-1.wav")));
    }

    @Test
    void anUnknownIntegrationIsAClearFailure() throws Exception {
        Path ok = file("ok.jsonl", line("imp-1", "2026-11-24T10:15:30", "V01", "Venda realizada", true));
        Run run = importing(ok, "nobody");
        assertEquals(Cli.FAILURE, run.status());
        assertTrue(run.err().contains("no integration 'nobody'"), run.err());
        assertTrue(run.err().contains("calls-token create"), run.err());
    }

    @Test
    void aMissingFileAndABadIntegrationNameAreRefused() throws Exception {
        Run missing = importing(dir.resolve("none.jsonl"), "acme");
        assertEquals(Cli.FAILURE, missing.status());
        assertTrue(missing.err().contains("no file"), missing.err());
        Path ok = file("ok2.jsonl", line("imp-1", "2026-11-24T10:15:30", "V01", "Venda realizada", true));
        Run badName = importing(ok, "Not A Name");
        assertEquals(Cli.USAGE, badName.status());
        assertTrue(badName.err().contains("--integration 'Not A Name'"), badName.err());
    }
}
