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
        // The publication (merge, checks, precomputed counts, CNPJ map) is inside the load's time.
        assertTrue(
                loaded.out()
                        .matches(
                                "(?s).*partner rows,( reference month \\d{4}-\\d{2},)? publication \\d+(m\\d{2}|\\.\\d)s of the load\n.*"),
                loaded.out());
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
    void searchRejectsABadParameterAsAUsageErrorNamingIt() {
        Run r = run("search", "--index", tmp.resolve("index").toString(), "ufs=SP&limite=500");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("limite"), r.err());
    }

    /** A municipality of the index, as the Receita writes it: upper case, without accents. */
    private static String aMunicipality() {
        Run page = run("search", "--index", tmp.resolve("index").toString(), "ufs=SP&limite=1");
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\"municipio\":\"([A-Z -]+)\"").matcher(page.out());
        assertTrue(m.find(), "no municipality in:\n" + page.out() + page.err());
        return m.group(1);
    }

    private static long total(Run run) {
        java.util.regex.Matcher total =
                java.util.regex.Pattern.compile("\"total\":(\\d+)\\}").matcher(run.out());
        assertTrue(total.find(), run.out() + run.err());
        return Long.parseLong(total.group(1));
    }

    @Test
    void searchReadsRawAndPercentEncodedUtf8Alike() {
        String name = aMunicipality();
        // The same name as a person types it: accented vowels (which the register folds), a raw space.
        String accented = name.replaceFirst("A", "Ã")
                .replaceFirst("E", "É")
                .replaceFirst("I", "Í")
                .replaceFirst("O", "Ô");
        assertTrue(!accented.equals(name), name);
        String index = tmp.resolve("index").toString();
        Run plain = run("search", "--index", index, "municipios=" + name + "&apenas_total=true");
        assertEquals(0, plain.status(), plain.err());
        assertTrue(total(plain) > 0, plain.out());
        Run raw = run("search", "--index", index, "municipios=" + accented + "&apenas_total=true");
        assertEquals(0, raw.status(), raw.err());
        assertEquals(total(plain), total(raw), accented);
        String encoded = java.net.URLEncoder.encode(accented, StandardCharsets.UTF_8);
        Run percent = run("search", "--index", index, "municipios=" + encoded, "apenas_total=true");
        assertEquals(0, percent.status(), percent.err());
        assertEquals(raw.out(), percent.out());
    }

    @Test
    void searchWithMalformedUtf8IsAUsageErrorNamingTheParameter() {
        String index = tmp.resolve("index").toString();
        Run percent = run("search", "--index", index, "ufs=SP&municipios=S%C3o");
        assertEquals(2, percent.status());
        assertTrue(percent.err().contains("municipios is not well-formed UTF-8"), percent.err());
        Run replaced = run("search", "--index", index, "municipios=S\uFFFDo");
        assertEquals(2, replaced.status());
        assertTrue(replaced.err().contains("municipios is not well-formed UTF-8"), replaced.err());
        Run surrogate = run("search", "--index", index, "bairros=a\uD800b");
        assertEquals(2, surrogate.status());
        assertTrue(surrogate.err().contains("bairros is not well-formed UTF-8"), surrogate.err());
        assertEquals(1, percent.err().lines().count(), percent.err());
    }

    @Test
    void loadWithPublishUploadsTheGenerationAndMovesTheStoresPointerLast() throws Exception {
        Path bucket = tmp.resolve("bucket");
        for (int month = 1; month <= 2; month++) {
            Run r = run(
                    "load",
                    "--dump",
                    tmp.resolve("dump").toString(),
                    "--index",
                    tmp.resolve("index-published").toString(),
                    "--threads",
                    "1",
                    "--publish",
                    bucket.toString(),
                    "--keep-generations",
                    "1");
            assertEquals(0, r.status(), r.err());
            assertTrue(r.out().contains("published to " + bucket + ": generation " + month + ", "), r.out());
        }
        assertEquals(
                "generation=2", Files.readAllLines(bucket.resolve("CURRENT")).get(0));
        assertTrue(Files.readString(bucket.resolve("gen-2.manifest")).contains("\nfile=generation.properties "));
        // --keep-generations 1: the first generation left the store once the pointer moved.
        assertTrue(!Files.exists(bucket.resolve("gen-1.manifest")));
        try (var files = Files.walk(bucket.resolve("gen-1"))) {
            assertEquals(0, files.filter(Files::isRegularFile).count());
        }
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
        assertTrue(
                r.err().contains("--establishments N is required (or --evolve-from DIR --reference YYYY-MM)"), r.err());
    }
}
