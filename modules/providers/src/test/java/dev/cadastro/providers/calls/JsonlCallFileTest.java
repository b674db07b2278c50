package dev.cadastro.providers.calls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallRecord;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.files.LocalFolderFileStore;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonlCallFileTest {
    private static final String GOOD = "{\"id\":\"20261124-0000001\",\"id_ocorrencia\":\"20261124-0000001\","
            + "\"funcionario_id\":\"1001\",\"funcionario_nome\":\"Joao Silva\",\"agente\":\"joao.silva\","
            + "\"fila\":\"vendas\",\"datahistorico\":\"2026-11-24T10:15:30.123456\","
            + "\"horario_inicio\":\"2026-11-24T10:10:00\",\"duracao_gravacao\":3,"
            + "\"ocorrencia_codigo\":\"V01\",\"ocorrencia_descricao\":\"Venda realizada\","
            + "\"gravacao\":\"rec/one.wav\",\"arquivada_em\":\"2026-11-24T10:20:00-03:00\"}";

    @TempDir
    Path folder;

    private byte[] wav;

    @BeforeEach
    void recording() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WavRecording.writeTones(out, 3, 5);
        wav = out.toByteArray();
        Files.createDirectories(folder.resolve("rec"));
        Files.write(folder.resolve("rec/one.wav"), wav);
    }

    private Path file(String... lines) throws Exception {
        return Files.writeString(folder.resolve("calls.jsonl"), String.join("\n", lines) + "\n");
    }

    private static String with(String field, String json) {
        return GOOD.replaceFirst(
                "\"" + field + "\":(\"[^\"]*\"|[^,}]*)",
                java.util.regex.Matcher.quoteReplacement("\"" + field + "\":" + json));
    }

    private static String without(String field) {
        return GOOD.replaceFirst(",?\"" + field + "\":(\"[^\"]*\"|[^,}]*)", "").replace("{,", "{");
    }

    @Test
    void readsEveryFieldOfAGoodLine() throws Exception {
        JsonlCallFile f = JsonlCallFile.read(file(GOOD), 7);
        CallRecord c = f.calls().get(0);
        assertEquals(
                new CallRecord(
                        7,
                        "20261124-0000001",
                        "20261124-0000001",
                        "1001",
                        "joao.silva",
                        "Joao Silva",
                        "vendas",
                        "V01",
                        "Venda realizada",
                        Instant.parse("2026-11-24T13:15:30.123456Z"),
                        Instant.parse("2026-11-24T13:10:00Z"),
                        3,
                        Instant.parse("2026-11-24T13:20:00Z"),
                        "calls/7/20261124-0000001.wav"),
                c);
        assertEquals(
                folder.resolve("rec/one.wav"), f.entries().get(0).recording().orElseThrow());
        assertEquals(1, f.entries().get(0).line());
    }

    @Test
    void timesWithoutAnOffsetAreBrasiliaAndWithOneAreTakenAsGiven() throws Exception {
        JsonlCallFile f = JsonlCallFile.read(
                file(
                        with("datahistorico", "\"2026-11-24T10:15:30\""),
                        with("id", "\"b\"").replace("10:15:30.123456", "13:15:30Z"),
                        with("id", "\"c\"").replace("10:15:30.123456", "14:15:30+01:00")),
                1);
        List<Instant> times = f.calls().stream().map(CallRecord::classifiedAt).toList();
        Instant expected = Instant.parse("2026-11-24T13:15:30Z");
        assertEquals(List.of(expected, expected, expected), times);
    }

    @Test
    void fractionsAreKeptToTheMicrosecondSoTiesStayApart() throws Exception {
        JsonlCallFile f = JsonlCallFile.read(
                file(
                        with("datahistorico", "\"2026-11-24T10:15:30.000001\""),
                        with("id", "\"b\"").replace("10:15:30.123456", "10:15:30.000002"),
                        with("id", "\"c\"").replace("10:15:30.123456", "10:15:30.000002"),
                        with("id", "\"d\"").replace("10:15:30.123456", "10:15:30.0000029")),
                1);
        List<Instant> t = f.calls().stream().map(CallRecord::classifiedAt).toList();
        assertEquals(Instant.parse("2026-11-24T13:15:30.000001Z"), t.get(0));
        assertEquals(Instant.parse("2026-11-24T13:15:30.000002Z"), t.get(1));
        assertNotEquals(t.get(0), t.get(1));
        assertEquals(t.get(1), t.get(2), "a microsecond tie is kept as a tie");
        assertEquals(t.get(1), t.get(3), "nanoseconds are cut to the microsecond the store keeps");
    }

    @Test
    void unknownFieldsOfAnyShapeAreIgnored() throws Exception {
        String extra = GOOD.replace(
                "{",
                "{\"horario_fim\":\"2026-11-24T10:10:03\",\"url_gravacao\":\"https://x\",\"ramal\":4021,"
                        + "\"tags\":[\"a\",{\"b\":1}],\"cliente\":{\"cpf\":null,\"n\":[1,2]},\"vip\":true,\"nota\":9.5,");
        assertEquals(
                JsonlCallFile.read(file(GOOD), 1).calls(),
                JsonlCallFile.read(file(extra), 1).calls());
    }

    @Test
    void aCallWithoutRecordingOrArchiveTimeIsStillBeingArchived() throws Exception {
        JsonlCallFile f = JsonlCallFile.read(
                file(
                        without("arquivada_em"),
                        with("id", "\"b\"").replace(",\"gravacao\":\"rec/one.wav\"", ""),
                        with("id", "\"c\"")
                                .replace("\"rec/one.wav\"", "\"rec/not-yet.wav\"")
                                .replace(",\"arquivada_em\":\"2026-11-24T10:20:00-03:00\"", "")),
                1);
        for (JsonlCallFile.Entry e : f.entries()) {
            assertNull(e.call().archivedAt(), "line " + e.line());
            assertTrue(e.recording().isEmpty());
        }
    }

    @Test
    void leftAgentsAndReceptiveQueuesCarryNulls() throws Exception {
        String line =
                with("funcionario_id", "null").replace("\"Joao Silva\"", "null").replace("\"V01\"", "null");
        CallRecord c = JsonlCallFile.read(
                        file(line, without("id_ocorrencia").replace("20261124-0000001\",\"fun", "b\",\"fun")), 1)
                .calls()
                .get(0);
        assertNull(c.agentId());
        assertNull(c.agentName());
        assertNull(c.resultCode());
        assertEquals("joao.silva", c.agentLogin());
    }

    @Test
    void occurrenceIdDefaultsToTheId() throws Exception {
        CallRecord c =
                JsonlCallFile.read(file(without("id_ocorrencia")), 1).calls().get(0);
        assertEquals(c.id(), c.occurrenceId());
    }

    @Test
    void copiesTheRecordingsIntoTheStoreUnderTheCallsKey() throws Exception {
        LocalFolderFileStore store = new LocalFolderFileStore(folder.resolve("store"));
        JsonlCallFile f = JsonlCallFile.read(file(GOOD, without("arquivada_em").replace("0000001", "0000002")), 9);
        assertEquals(1, f.copyRecordings(store));
        try (FileStore.Download d = store.open("calls/9/20261124-0000001.wav").orElseThrow()) {
            assertArrayEquals(wav, d.stream().readAllBytes());
        }
        assertTrue(store.open("calls/9/20261124-0000002.wav").isEmpty());
        assertEquals(1, f.copyRecordings(store), "copying again replaces the file");
    }

    @Test
    void importingTwiceChangesNothingAndALaterClassificationIsAReclassification() throws Exception {
        LocalFolderFileStore files = new LocalFolderFileStore(folder.resolve("store"));
        MemoryCallStore store = new MemoryCallStore(files);
        String pending = without("arquivada_em").replace("0000001", "0000002");
        JsonlCallFile first = JsonlCallFile.read(file(GOOD, pending, with("id", "\"third\"")), 4);

        JsonlCallFile.Imported a = first.importInto(store, files, 2);
        assertEquals(3, a.calls());
        assertEquals(2, a.recordingsCopied());
        assertEquals(3, a.result().inserted());

        JsonlCallFile.Imported again = first.importInto(store, files, 2);
        assertEquals(new dev.cadastro.core.calls.CallStore.IngestResult(0, 0, 0, 3, 0), again.result());

        String reclassified = GOOD.replace("10:15:30.123456", "11:00:00")
                .replace("\"V01\"", "\"V03\"")
                .replace("Venda realizada", "Retornar ligação");
        JsonlCallFile.Imported later = JsonlCallFile.read(
                        file(
                                reclassified,
                                pending.replace("\"duracao", "\"arquivada_em\":\"2026-11-24T10:30:00\",\"duracao")),
                        4)
                .importInto(store, files, 100);
        assertEquals(1, later.result().reclassified());
        assertEquals(1, later.result().archived());
        CallRecord now = store.find(4, "20261124-0000001").orElseThrow();
        assertEquals("Retornar ligação", now.resultDescription());
        assertEquals("V03", now.resultCode());
        assertEquals(Instant.parse("2026-11-24T14:00:00Z"), now.classifiedAt());
        assertTrue(files.open("calls/4/20261124-0000002.wav").isPresent());
    }

    @Test
    void blankLinesAndAByteOrderMarkAreSkipped() throws Exception {
        Path p = folder.resolve("bom.jsonl");
        Files.write(p, ("\uFEFF" + GOOD + "\n\n   \n" + with("id", "\"b\"") + "\n").getBytes(StandardCharsets.UTF_8));
        JsonlCallFile f = JsonlCallFile.read(p, 1);
        assertEquals(2, f.calls().size());
        assertEquals(4, f.entries().get(1).line());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not JSON                   | {"id":                                       | line 3: is not JSON
            not an object              | [1,2]                                        | line 3: is not a JSON object
            two values                 | {"id":"a"} {"id":"b"}                        | line 3: has more than one JSON value
            id missing                 | WITHOUT id                                   | line 3: field id is required
            id null                    | id=null                                      | line 3: field id is required
            id with a slash            | id="a/b"                                     | line 3: field id 'a/b' must be 1 to 64 letters
            id with two dots           | id="a..b"                                    | line 3: field id 'a..b' must be 1 to 64 letters, digits, '.', '-' or '_', without '..'
            login with a NUL           | agente="a\\u0000b"                           | line 3: field agente agentLogin must not contain control characters
            name with a control char   | funcionario_nome="Jo\\u0007o"                | line 3: field funcionario_nome agentName must not contain control characters
            classified after 9999      | datahistorico="+10000-11-24T10:15:30Z"       | line 3: field datahistorico classifiedAt +10000-11-24T10:15:30Z is outside the years 1 to 9999
            id a number                | id=12                                        | line 3: field id must be a string; got a number
            login missing              | WITHOUT agente                               | line 3: field agente is required
            login blank                | agente="  "                                  | line 3: field agente must not be blank
            queue an object            | fila={"x":1}                                 | line 3: field fila must be a string; got an object
            description missing        | WITHOUT ocorrencia_descricao                 | line 3: field ocorrencia_descricao is required
            code a number              | ocorrencia_codigo=1                          | line 3: field ocorrencia_codigo must be a string; got a number
            agent id a boolean         | funcionario_id=true                          | line 3: field funcionario_id must be a string; got a boolean
            classified not a date      | datahistorico="24/11/2026 10:15"             | line 3: field datahistorico '24/11/2026 10:15' must be an ISO 8601 date and time
            classified impossible      | datahistorico="2026-02-30T10:00:00"          | line 3: field datahistorico '2026-02-30T10:00:00' must be an ISO 8601
            started missing            | WITHOUT horario_inicio                       | line 3: field horario_inicio is required
            started after classified   | horario_inicio="2026-11-24T11:00:00"         | line 3: field horario_inicio '2026-11-24T11:00:00' must not be after datahistorico
            duration negative          | duracao_gravacao=-5                          | line 3: field duracao_gravacao -5 must be a whole number of seconds from 0 to 86400
            duration a fraction        | duracao_gravacao=3.5                         | line 3: field duracao_gravacao 3.5 must be a whole number
            duration a string          | duracao_gravacao="3"                         | line 3: field duracao_gravacao 3 must be a whole number
            duration huge              | duracao_gravacao=99999999999999999999        | line 3: field duracao_gravacao 99999999999999999999 must be a whole number
            duration missing           | WITHOUT duracao_gravacao                     | line 3: field duracao_gravacao is required
            archived not a date        | arquivada_em="ontem"                         | line 3: field arquivada_em 'ontem' must be an ISO 8601
            recording absent           | gravacao="rec/none.wav"                      | line 3: field gravacao 'rec/none.wav' is not a file in
            recording absolute         | gravacao="/etc/passwd"                       | line 3: field gravacao '/etc/passwd' must be relative
            recording not a WAV        | gravacao="calls.jsonl"                       | line 3: field gravacao 'calls.jsonl' is not a RIFF/WAVE file
            login too long             | agente="LONG"                                | line 3: field agente agentLogin has 256 characters; the maximum is 255
            archived before the start  | arquivada_em="2026-11-24T09:00:00"           | line 3: field arquivada_em archivedAt 2026-11-24T12:00:00Z is before the call started
            field twice                | TWICE fila                                   | line 3: field fila appears twice
            id repeated                | id="20261124-0000001"                        | line 3: field id '20261124-0000001' repeats line 1
            """)
    void aBadLineFailsTheWholeFileNamingTheLineTheFieldAndTheRule(String what, String change, String message)
            throws Exception {
        String bad;
        if (change.startsWith("WITHOUT ")) {
            bad = without(change.substring(8)).replace("20261124-0000001", "x3");
            if (change.equals("WITHOUT id")) {
                bad = without("id");
            }
        } else if (change.startsWith("TWICE ")) {
            bad = GOOD.replace("{\"id\":\"20261124-0000001\"", "{\"id\":\"x3\",\"fila\":\"a\"");
        } else if (change.contains("=") && !change.startsWith("{")) {
            String field = change.substring(0, change.indexOf('='));
            bad = with(field, change.substring(change.indexOf('=') + 1).replace("LONG", "a".repeat(256)));
            if (!field.equals("id")) {
                bad = bad.replace("20261124-0000001", "x3");
            }
        } else {
            bad = change;
        }
        Path p = file(GOOD, with("id", "\"second\""), bad, with("id", "\"fourth\""));
        CallFileException e = assertThrows(CallFileException.class, () -> JsonlCallFile.read(p, 1), what);
        assertTrue(e.getMessage().startsWith(message), what + ": " + e.getMessage());
        assertEquals(3, e.line());
    }

    @Test
    void aRecordingInAnotherFormatIsNamed() throws Exception {
        byte[] stereo = wav.clone();
        stereo[22] = 2;
        Files.write(folder.resolve("rec/stereo.wav"), stereo);
        CallFileException e = assertThrows(
                CallFileException.class, () -> JsonlCallFile.read(file(with("gravacao", "\"rec/stereo.wav\"")), 1));
        assertTrue(e.getMessage().contains("2 channel(s)"), e.getMessage());
        assertEquals("gravacao", e.field().orElseThrow());
    }

    @Test
    void textThatIsNotUtf8IsRefusedWithItsLine() throws Exception {
        Path p = folder.resolve("latin1.jsonl");
        Files.write(
                p,
                (GOOD + "\n" + with("id", "\"b\"").replace("Venda realizada", "Não"))
                        .getBytes(StandardCharsets.ISO_8859_1));
        CallFileException e = assertThrows(CallFileException.class, () -> JsonlCallFile.read(p, 1));
        assertEquals("line 2: is not UTF-8 text", e.getMessage());
    }

    /** A WAV outside the import folder, and the import folder ({@code folder/import}) holding the file. */
    private Path outsideRecording() throws Exception {
        Files.createDirectories(folder.resolve("elsewhere"));
        Files.write(folder.resolve("elsewhere/private.wav"), wav);
        return Files.createDirectories(folder.resolve("import"));
    }

    @Test
    void aRecordingOutsideTheFilesFolderThroughDotDotIsRefused() throws Exception {
        Path in = outsideRecording();
        Path p = Files.writeString(in.resolve("calls.jsonl"), with("gravacao", "\"../elsewhere/private.wav\"") + "\n");
        CallFileException e = assertThrows(CallFileException.class, () -> JsonlCallFile.read(p, 1));
        assertEquals("gravacao", e.field().orElseThrow(), e.getMessage());
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
    }

    @Test
    void aRecordingThatIsASymbolicLinkIsRefusedEvenWhenItPointsInside() throws Exception {
        Path in = outsideRecording();
        Files.createSymbolicLink(in.resolve("out.wav"), folder.resolve("elsewhere/private.wav"));
        Files.write(in.resolve("real.wav"), wav);
        Files.createSymbolicLink(in.resolve("in.wav"), in.resolve("real.wav"));
        for (String link : List.of("out.wav", "in.wav")) {
            Path p = Files.writeString(in.resolve("calls.jsonl"), with("gravacao", "\"" + link + "\"") + "\n");
            CallFileException e = assertThrows(CallFileException.class, () -> JsonlCallFile.read(p, 1), link);
            assertEquals("gravacao", e.field().orElseThrow(), e.getMessage());
            assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        }
        Path ok = Files.writeString(in.resolve("calls.jsonl"), with("gravacao", "\"real.wav\"") + "\n");
        assertEquals(1, JsonlCallFile.read(ok, 1).entries().size(), "the same file, not through a link, is read");
    }

    @Test
    void aRecordingWithBytesAfterItsDataIsRefusedSoNothingElseIsServed() throws Exception {
        byte[] padded = java.util.Arrays.copyOf(wav, wav.length + 21);
        System.arraycopy("TOP SECRET, NOT AUDIO".getBytes(StandardCharsets.US_ASCII), 0, padded, wav.length, 21);
        Files.write(folder.resolve("rec/padded.wav"), padded);
        CallFileException e = assertThrows(
                CallFileException.class, () -> JsonlCallFile.read(file(with("gravacao", "\"rec/padded.wav\"")), 1));
        assertEquals("gravacao", e.field().orElseThrow(), e.getMessage());
        assertTrue(e.getMessage().contains("21 bytes after"), e.getMessage());
    }
}
