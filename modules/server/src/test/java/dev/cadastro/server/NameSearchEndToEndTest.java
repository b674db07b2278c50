package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code busca_textual} (name search) through a real socket, on the search, the mailing export and its
 * estimate. Every expected count and set of CNPJs is computed here from the generator's own rows (the
 * establishments it handed the fixture's load), with a folding and a word split written for this test
 * (the Unicode decomposition, a regular expression) and the stop-words as docs/rules.md lists them.
 */
class NameSearchEndToEndTest {
    private static final String SEARCH = "/v1/empresas";
    /** The stop-words as docs/rules.md lists them. */
    private static final Set<String> STOP = Set.of(
            "LTDA", "ME", "EPP", "EIRELI", "SA", "SS", "MEI", "CIA", "DE", "DA", "DO", "DAS", "DOS", "DI", "DU", "EM",
            "NA", "NO", "NAS", "NOS", "OS", "AS", "AO", "AOS", "PARA", "POR");

    private static ServerFixture f;
    private static OpenApiContract contract;
    private static String key;

    @BeforeAll
    static void start() {
        f = ServerFixture.get();
        contract = new OpenApiContract(f.get("/v1/openapi.json").body());
        Account account = f.account(1_000_000, 1_000_000);
        key = f.key(account, Scope.EMPRESAS_READ, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        assertFalse(ServerFixture.generated().isEmpty(), "the fixture kept the generator's rows");
    }

    // ---- the oracle

    /** Upper case, accents removed, cut at anything that is not A-Z or 0-9. */
    private static List<String> words(String text) {
        if (text == null) {
            return List.of();
        }
        String folded = Normalizer.normalize(text, Normalizer.Form.NFD)
                .replaceAll("\\p{M}", "")
                .toUpperCase(Locale.ROOT);
        return Arrays.stream(folded.split("[^A-Z0-9]+"))
                .filter(w -> !w.isEmpty())
                .toList();
    }

    private static boolean kept(String w) {
        return w.length() >= 2 && !STOP.contains(w) && !w.matches("[0-9]+");
    }

    /** The establishments whose names hold every word of {@code text} but the last, and a word starting with the last. */
    private static Predicate<Establishment> named(String text) {
        List<String> asked = new ArrayList<>(
                words(text).stream().filter(NameSearchEndToEndTest::kept).toList());
        String prefix = asked.remove(asked.size() - 1);
        return e -> {
            Set<String> have = new HashSet<>();
            for (String name :
                    new String[] {e.company() == null ? null : e.company().razaoSocial(), e.nomeFantasia()}) {
                words(name).stream().filter(NameSearchEndToEndTest::kept).forEach(have::add);
            }
            return have.containsAll(asked) && have.stream().anyMatch(w -> w.startsWith(prefix));
        };
    }

    private static Set<String> expected(Predicate<Establishment> p) {
        Set<String> out = new LinkedHashSet<>();
        for (Establishment e : ServerFixture.generated()) {
            if (p.test(e)) {
                out.add(e.cnpj().value());
            }
        }
        return out;
    }

    // ---- the client

    private static HttpResponse<String> search(String query) {
        HttpResponse<String> r = f.get(SEARCH + "?" + query, "Authorization", "Bearer " + key);
        contract.check(SEARCH, r);
        return r;
    }

    private static String text(String s) {
        return "busca_textual=" + URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static long total(String query) {
        HttpResponse<String> r = search(query + "&apenas_total=true");
        assertEquals(200, r.statusCode(), r.body());
        assertFalse(json(r).path("aproximado").asBoolean(), "a small register counts exactly");
        return json(r).path("total").asLong();
    }

    private static String plain(String cnpj) {
        return cnpj.replaceAll("[^0-9A-Z]", "");
    }

    // ---- the rules

    @ParameterizedTest
    @ValueSource(strings = {"joao", "JOÃO", "silva", "joao silva", "comercio", "padaria", "sao jose", "acai"})
    void countsEqualAnIndependentCountOfTheGeneratedRows(String words) {
        long expected = expected(named(words)).size();
        assertTrue(expected > 0, "the fixture has names with " + words);
        assertEquals(expected, total(text(words)), words);
        HttpResponse<String> page = search(text(words) + "&limite=200");
        assertEquals(expected, json(page).path("paginacao").path("total").asLong(), "a page states the same total");
    }

    @Test
    void accentsAndCaseDoNotMatter() {
        Set<String> accented = new HashSet<>();
        for (Establishment e : ServerFixture.generated()) {
            String names = (e.company() == null ? "" : e.company().razaoSocial()) + " " + e.nomeFantasia();
            if (names.contains("JOÃO")) {
                accented.add(e.cnpj().value());
            }
        }
        assertFalse(accented.isEmpty(), "the generator writes JOÃO");
        assertEquals(total(text("JOÃO")), total(text("joao")));
        Set<String> found = new HashSet<>();
        for (int pagina = 1; ; pagina++) {
            JsonNode body = json(search(text("joao") + "&limite=200&pagina=" + pagina));
            for (JsonNode d : body.path("dados")) {
                found.add(plain(d.path("cnpj").asText()));
            }
            if (body.path("dados").size() < 200) {
                break;
            }
        }
        assertTrue(found.containsAll(accented), "joao finds every JOÃO");
    }

    @Test
    void theLastWordIsAPrefixAndTheOthersWholeWords() {
        long whole = total(text("padaria"));
        assertEquals(whole, total(text("padar")), "PADAR is a prefix of PADARIA only");
        assertEquals(expected(named("joao pad")).size(), total(text("joao pad")));
        assertEquals(0, total(text("padar joao")), "a word before the last is matched whole");
        assertTrue(total(text("jo")) > total(text("joao")), "JO also starts JOSE, JORGE...");
    }

    @Test
    void everyWordMustMatch() {
        long both = total(text("joao silva"));
        assertTrue(both > 0);
        assertTrue(both < total(text("silva")) && both < total(text("joao")), "both words, not either");
        for (JsonNode d : json(search(text("joao silva") + "&limite=200")).path("dados")) {
            String names = String.join(
                    " ",
                    words(d.path("razao_social").asText() + " "
                            + d.path("nome_fantasia").asText()));
            assertTrue(names.contains("JOAO") && names.contains("SILVA"), names);
        }
    }

    @Test
    void stopWordsAndNumbersAreIgnored() {
        long padaria = total(text("padaria"));
        assertEquals(padaria, total(text("padaria ltda")));
        assertEquals(padaria, total(text("LTDA padaria de ME")));
        assertEquals(padaria, total(text("padaria 24")));
        assertEquals(total(text("sao jose")), total(text("sao de jose sa")));
    }

    @Test
    void combinesWithUfsAndSituacaoCadastral() {
        Predicate<Establishment> p = named("silva").and(e -> "SP".equals(e.uf()) && "02".equals(e.situacaoCadastral()));
        long expected = expected(p).size();
        assertTrue(expected > 0);
        assertEquals(expected, total(text("silva") + "&ufs=SP&situacao_cadastral=02"));
        for (JsonNode d : json(search(text("silva") + "&ufs=SP&situacao_cadastral=02&limite=200"))
                .path("dados")) {
            assertEquals("SP", d.path("uf").asText());
            assertTrue(expected(p).contains(plain(d.path("cnpj").asText())));
        }
    }

    @Test
    void resultsKeepTheRegistersOrder() {
        List<String> all = new ArrayList<>();
        for (int pagina = 1; ; pagina++) {
            List<Empresa> page = f.server
                    .register()
                    .search(RegisterQuery.builder()
                            .ufs("SP")
                            .limite(200)
                            .pagina(pagina)
                            .build())
                    .dados();
            page.forEach(e -> all.add(plain(e.cnpj())));
            if (page.size() < 200) {
                break;
            }
        }
        Set<String> matching = expected(named("silva").and(e -> "SP".equals(e.uf())));
        List<String> inOrder = all.stream().filter(matching::contains).toList();
        List<String> got = new ArrayList<>();
        for (JsonNode d : json(search(text("silva") + "&ufs=SP&limite=200")).path("dados")) {
            got.add(plain(d.path("cnpj").asText()));
        }
        assertEquals(inOrder.subList(0, Math.min(200, inOrder.size())), got);
    }

    @Test
    void isChargedLikeAnySearch() {
        Account account = f.account(1_000, 1_000);
        String own = f.key(account);
        HttpResponse<String> r = f.get(SEARCH + "?" + text("silva") + "&limite=7", "Authorization", "Bearer " + own);
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(7, json(r).path("paginacao").path("retornados").asInt());
        assertEquals(7, json(r).path("creditos_consumidos").asInt());
        assertEquals(993, f.balance(account));
        HttpResponse<String> count =
                f.get(SEARCH + "?" + text("silva") + "&apenas_total=true", "Authorization", "Bearer " + own);
        assertEquals(0, json(count).path("creditos_consumidos").asInt());
        assertEquals(993, f.balance(account));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a joao|word-too-short",
                "um dois tres quatro cinco seis sete oito nove dez onze|too-many-words",
                "ltda me|no-words",
                "de 123|no-words"
            })
    void refusesTextsThatBreakTheRules(String line) {
        String[] parts = line.split("\\|");
        HttpResponse<String> r = search(text(parts[0]));
        assertEquals(422, r.statusCode(), r.body());
        JsonNode erro = json(r).path("erro");
        assertEquals("PARAMETRO_INVALIDO", erro.path("code").asText());
        assertTrue(erro.path("detalhe").asText().contains("busca_textual"), r.body());
        assertTrue(erro.path("detalhe").asText().contains(parts[1]), r.body());
    }

    // ---- mailing

    private static HttpResponse<String> post(String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(f.uri(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> r = f.send(request);
        contract.check(path, "post", r);
        return r;
    }

    @Test
    void theEstimateCountsANameSearch() {
        long expected =
                expected(named("joao silva").and(e -> "SP".equals(e.uf()))).size();
        HttpResponse<String> r =
                post("/v1/mailing/estimativa", "{\"filtros\": {\"busca_textual\": \"João Silva\", \"ufs\": \"SP\"}}");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(expected, json(r).path("total").asLong());
        HttpResponse<String> wrong = post("/v1/mailing/estimativa", "{\"filtros\": {\"busca_textual\": [\"joao\"]}}");
        assertEquals(422, wrong.statusCode(), wrong.body());
        assertTrue(wrong.body().contains("filtros.busca_textual"), wrong.body());
    }

    @Test
    void aMailingExportDeliversOnlyMatches() throws IOException, InterruptedException {
        Set<String> expected = expected(named("silva").and(e -> "SP".equals(e.uf())));
        assertTrue(expected.size() > 1 && expected.size() < 1_000);
        HttpResponse<String> created = post(
                "/v1/mailing",
                "{\"filtros\": {\"busca_textual\": \"silva\", \"ufs\": [\"SP\"]}, \"quantidade\": 1000,"
                        + " \"formato\": \"csv\"}");
        assertEquals(200, created.statusCode(), created.body());
        String id = json(created).path("job_id").asText();
        JsonNode done = awaitEnd(id);
        assertEquals("concluido", done.path("status").asText(), done.toString());
        assertEquals(expected.size(), done.path("quantidade_entregue").asInt());
        HttpResponse<byte[]> file = f.client.send(
                HttpRequest.newBuilder(f.uri("/v1/mailing/" + id + "/arquivo"))
                        .header("Authorization", "Bearer " + key)
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, file.statusCode());
        Set<String> delivered = new HashSet<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(file.body()))) {
            assertTrue(zip.getNextEntry() != null);
            String csv = new String(zip.readAllBytes(), StandardCharsets.UTF_8);
            String[] lines = csv.split("\r\n");
            for (int i = 1; i < lines.length; i++) {
                delivered.add(plain(lines[i].substring(0, lines[i].indexOf(';'))));
            }
        }
        assertEquals(expected, delivered);
    }

    private static JsonNode awaitEnd(String id) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = f.get("/v1/mailing/" + id, "Authorization", "Bearer " + key);
            assertEquals(200, r.statusCode(), r.body());
            if (!json(r).path("status").asText().equals("processando")) {
                return json(r);
            }
            Thread.onSpinWait();
        }
        return fail("mailing job " + id + " still processando after 30 s");
    }
}
