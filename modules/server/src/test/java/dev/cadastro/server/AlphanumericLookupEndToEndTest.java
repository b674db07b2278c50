package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.error.Service;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.jetty.JettyRuntime;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.register.LuceneRegister;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The official example of the alphanumeric CNPJ, {@code 12.ABC.345/01DE-35}, looked up end to end: a
 * synthetic dump in the Receita format gets one more establishment (a copy of a generated one, its
 * CNPJ replaced by {@code 12ABC34501DE35}, with its company and Simples rows under root {@code
 * 12ABC345}), the real loader indexes it, and a real client asks the server through a real socket.
 */
class AlphanumericLookupEndToEndTest {
    private static final String ALPHANUMERIC = "12ABC34501DE35";

    private static ServerFixture f;
    private static LuceneRegister register;
    private static JettyRuntime http;
    private static Establishment original;

    @BeforeAll
    static void start() throws IOException {
        f = ServerFixture.get();
        Path dir = Files.createTempDirectory(Path.of("target"), "alnum-");
        Path dump = dir.resolve("dump");
        List<Establishment> generated = new ArrayList<>();
        DumpGenerator.generate(
                dump,
                GeneratorOptions.builder(300).seed(13).quirkRate(0).threads(1).build(),
                e -> {
                    synchronized (generated) {
                        generated.add(e);
                    }
                });
        original = generated.stream()
                .filter(e -> e.company() != null && e.cnpj().value().chars().allMatch(Character::isDigit))
                .findFirst()
                .orElseThrow();
        String root = original.cnpj().value().substring(0, 8);
        String estab = "\"" + root + "\";\"" + original.cnpj().value().substring(8, 12) + "\";\""
                + original.cnpj().value().substring(12) + "\";";
        assertTrue(
                appendCopy(dump, "Estabelecimentos", estab, "\"12ABC345\";\"01DE\";\"35\";"), "the establishment row");
        assertTrue(appendCopy(dump, "Empresas", "\"" + root + "\";", "\"12ABC345\";"), "the company row");
        appendCopy(dump, "Simples", "\"" + root + "\";", "\"12ABC345\";"); // not every company has one
        LoadOptions load =
                LoadOptions.builder(dump).rejects(dir.resolve("rejects.tsv")).build();
        DumpLoader.Result loaded = DumpLoader.load(load, dir.resolve("index"), DumpLoader.buildOptionsFor(load, 301));
        assertEquals(301, loaded.published().documents(), loaded.summary().render());
        register = LuceneRegister.open(dir.resolve("index"));
        http = JettyRuntime.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                CompanyDataRoutes.router(
                        register,
                        f.server.store(),
                        f.server.store().admission(1000, f.clock),
                        f.clock,
                        f.server.mailing()),
                Service.COMPANY_DATA,
                RuntimeOptions.defaults());
    }

    @AfterAll
    static void stop() {
        if (http != null) {
            http.close();
        }
        if (register != null) {
            register.close();
        }
    }

    /**
     * Appends to the file of a family the first row that starts with {@code prefix}, its prefix replaced;
     * false when no file of the family has such a row. The ZIP is written anew with the same entry name.
     */
    private static boolean appendCopy(Path dump, String family, String prefix, String replacement) throws IOException {
        try (DirectoryStream<Path> zips = Files.newDirectoryStream(dump, family + "*.zip")) {
            for (Path zip : zips) {
                String entryName;
                byte[] content;
                try (ZipFile z = new ZipFile(zip.toFile())) {
                    ZipEntry entry = z.entries().nextElement();
                    entryName = entry.getName();
                    try (InputStream in = z.getInputStream(entry)) {
                        content = in.readAllBytes();
                    }
                }
                String text = new String(content, StandardCharsets.ISO_8859_1);
                for (String line : text.split("\n")) {
                    if (line.startsWith(prefix)) {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        out.writeBytes(content);
                        if (!text.endsWith("\n")) {
                            out.write('\n');
                        }
                        out.writeBytes((replacement + line.substring(prefix.length()) + "\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        try (OutputStream file = Files.newOutputStream(zip);
                                ZipOutputStream z = new ZipOutputStream(file)) {
                            z.putNextEntry(new ZipEntry(entryName));
                            z.write(out.toByteArray());
                            z.closeEntry();
                        }
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static HttpResponse<String> lookup(String cnpj, String key) {
        return f.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/v1/empresas/" + cnpj))
                .header("Authorization", "Bearer " + key)
                .build());
    }

    @Test
    void looksUpTheOfficialAlphanumericExampleAndAnswersItsRecord() throws IOException {
        Account account = f.account(10, 1000);
        String key = f.key(account);
        HttpResponse<String> r = lookup(ALPHANUMERIC, key);
        assertEquals(200, r.statusCode(), r.body());
        JsonNode dados = json(r).path("dados");
        assertEquals(ALPHANUMERIC, dados.path("cnpj").asText());
        assertEquals(
                original.company().razaoSocial(), dados.path("razao_social").asText());
        assertEquals(1, json(r).path("creditos_consumidos").asInt());

        // Everything but the CNPJ is the record it was copied from, as the same server answers it.
        HttpResponse<String> source = lookup(original.cnpj().value(), key);
        assertEquals(200, source.statusCode(), source.body());
        ObjectNode copy = ((ObjectNode) dados.deepCopy());
        ObjectNode from = ((ObjectNode) json(source).path("dados").deepCopy());
        copy.remove("cnpj");
        from.remove("cnpj");
        assertEquals(from, copy);
        assertEquals(8, f.balance(account));
    }

    @Test
    void acceptsTheMaskedAndLowerCaseFormsOfTheSameCnpj() throws IOException {
        Account account = f.account(10, 1000);
        String key = f.key(account);
        HttpResponse<String> masked = lookup("12.ABC.345%2F01DE-35", key);
        assertEquals(200, masked.statusCode(), masked.body());
        assertEquals(ALPHANUMERIC, json(masked).path("dados").path("cnpj").asText());
        HttpResponse<String> lower = lookup("12abc34501de35", key);
        assertEquals(200, lower.statusCode(), lower.body());
        assertEquals(ALPHANUMERIC, json(lower).path("dados").path("cnpj").asText());
        assertEquals(0, json(lower).path("creditos_consumidos").asInt(), "the same CNPJ the same day");
        assertNotNull(register.published());
    }
}
