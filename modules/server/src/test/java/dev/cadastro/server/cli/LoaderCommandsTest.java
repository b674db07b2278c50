package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code generate}, {@code load}, {@code lookup} and {@code search} through the real command line. */
class LoaderCommandsTest {
    @TempDir
    static Path tmp;

    private static String cnpj;

    record Run(int status, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        List.of(args),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @BeforeAll
    static void generateAndLoad() throws Exception {
        Run generated =
                run("generate", "--out", tmp.resolve("dump").toString(), "--establishments", "3000", "--seed", "4");
        assertEquals(0, generated.status(), generated.err());
        assertTrue(generated.out().contains("dump D60808"), generated.out());
        Run loaded = run(
                "load",
                "--dump",
                tmp.resolve("dump").toString(),
                "--index",
                tmp.resolve("index").toString(),
                "--rejects",
                tmp.resolve("rejects.tsv").toString(),
                "--threads",
                "1");
        assertEquals(0, loaded.status(), loaded.err());
        assertTrue(loaded.out().contains("published: generation 1"), loaded.out());
        assertTrue(loaded.err().contains("cadastro load:"), "log lines when not on a terminal: " + loaded.err());
        try (ZipFile zip = new ZipFile(tmp.resolve("dump/Estabelecimentos0.zip").toFile())) {
            String line = new String(
                    zip.getInputStream(zip.entries().nextElement()).readNBytes(40), StandardCharsets.ISO_8859_1);
            String[] f = line.split(";");
            cnpj = (f[0] + f[1] + f[2]).replace("\"", "");
        }
    }

    @Test
    void lookupPrintsTheEmpresaRecordAsJson() {
        Run r = run("lookup", "--index", tmp.resolve("index").toString(), cnpj);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("{\"cnpj\":\"" + cnpj + "\",\"razao_social\":"), r.out());
        assertTrue(r.out().contains("\"situacao_descricao\":"), r.out());
    }

    @Test
    void lookupOfAnInvalidOrUnknownCnpjExitsWithOne() {
        Run invalid = run("lookup", "--index", tmp.resolve("index").toString(), "11.111.111/1111-11");
        assertEquals(1, invalid.status());
        assertTrue(invalid.err().contains("one digit repeated"), invalid.err());
        Run unknown = run("lookup", "--index", tmp.resolve("index").toString(), "12ABC34501DE35");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().contains("12.ABC.345/01DE-35 is not in the register index"), unknown.err());
    }

    @Test
    void searchPrintsTheCountAndOnePageWithTheHttpParameterNames() {
        Run r = run("search", "--index", tmp.resolve("index").toString(), "ufs=SP&ufs=RJ&limite=3");
        assertEquals(0, r.status(), r.err());
        // The very body GET /v1/empresas sends, with nothing charged.
        assertTrue(r.out().startsWith("{\"dados\":[{\"cnpj\":"), r.out());
        assertTrue(r.out().contains("\"paginacao\":{\"pagina\":1,\"limite\":3,\"retornados\":3,\"total\":"), r.out());
        assertTrue(r.out().contains("\"aproximado\":false,\"creditos_consumidos\":0}"), r.out());
        Run count = run("search", "--index", tmp.resolve("index").toString(), "ufs=SP&apenas_total=true");
        assertEquals(0, count.status(), count.err());
        assertTrue(count.out().contains("\"retornados\":0"), count.out());
        assertTrue(
                count.out().matches("(?s).*\"paginacao\":\\{[^}]*\"total\":(\\d+)\\},\"total\":\\d+,.*"), count.out());
    }

    @Test
    void searchRejectsABadParameterNamingIt() {
        Run r = run("search", "--index", tmp.resolve("index").toString(), "ufs=SP&limite=500");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("limite"), r.err());
    }

    @Test
    void loadOfAnIncompleteDumpPublishesNothingAndSaysWhy() throws Exception {
        Path broken = Files.createDirectories(tmp.resolve("broken"));
        Files.copy(tmp.resolve("dump/Cnaes.zip"), broken.resolve("Cnaes.zip"));
        Run r = run(
                "load",
                "--dump",
                broken.toString(),
                "--index",
                tmp.resolve("index").toString());
        assertEquals(3, r.status());
        assertTrue(r.err().contains("the dump is unusable, nothing was published"), r.err());
        assertTrue(r.err().contains("lacks Empresas0.zip"), r.err());
    }

    @Test
    void generateRequiresTheEstablishmentCount() {
        Run r = run("generate", "--out", tmp.resolve("x").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--establishments is required"), r.err());
    }
}
