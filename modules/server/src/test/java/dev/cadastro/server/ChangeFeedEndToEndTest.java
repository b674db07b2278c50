package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.generate.DumpEvolver;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.store.Database;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/empresas/alteracoes} end to end: two generated months (the second evolved from the
 * first) loaded one after the other into one index root; the feed served over a real socket by a server
 * on embedded PostgreSQL equals an independent diff of the two dumps, read here from their files; filters
 * apply to the new record; charges are those of a search page; bad parameters name the field.
 */
class ChangeFeedEndToEndTest {
    private static final int ESTABLISHMENTS = 20_000;
    private static CadastroServer server;
    private static ApiKeyIssuer issuer;
    private static OpenApiContract contract;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static Map<String, Establishment> before;
    private static Map<String, Establishment> after;
    private static ManualClock clock;

    @BeforeAll
    static void start() throws IOException {
        Path dir = Files.createTempDirectory(Path.of("target"), "feed-");
        GeneratorOptions options =
                GeneratorOptions.builder(ESTABLISHMENTS).seed(45).threads(2).build();
        DumpGenerator.generate(dir.resolve("m1"), options);
        DumpEvolver.evolve(dir.resolve("m1"), dir.resolve("m2"), YearMonth.of(2026, 9), options);
        Path index = dir.resolve("index");
        for (String month : List.of("m1", "m2")) {
            LoadOptions load = LoadOptions.builder(dir.resolve(month))
                    .rejects(dir.resolve(month + "-rejects.tsv"))
                    .build();
            DumpLoader.Result r = DumpLoader.load(load, index, DumpLoader.buildOptionsFor(load, ESTABLISHMENTS));
            if (month.equals("m2")) {
                assertTrue(
                        r.summary().published().contains("changes against the previous generation"),
                        r.summary().published());
            }
        }
        before = read(dir.resolve("m1"), dir.resolve("r1"));
        after = read(dir.resolve("m2"), dir.resolve("r2"));
        Database database = Database.builder()
                .embedded(dir.resolve("db"))
                .durableCommits(false)
                .build();
        clock = new ManualClock(ServerFixture.START);
        server = CadastroServer.start(EngineConfig.builder(index, database)
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(100_000))
                .clock(clock)
                .build());
        issuer = new ApiKeyIssuer(server.store().accounts(), server.store().apiKeys(), clock, new SecureRandom());
        contract = new OpenApiContract(get("/v1/openapi.json", null).body());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /**
     * The change lines {@code ./cadastro demo} prints answer 200 on a register of two months, as the
     * demo's is (DemoCurlLinesTest sends every other printed line, to a register of one month).
     */
    @Test
    void theDemosChangeLinesAnswerOnTwoMonths() throws Exception {
        Path home = Files.createTempDirectory(Path.of("target"), "demo-changes-");
        java.io.PrintStream quiet =
                new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Map<Scope, String> keys = new DemoSetup(home).ensureAccount(server.store(), clock, new SecureRandom(), quiet);
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        dev.cadastro.server.cli.DemoCommand.printCurlLines(
                new java.io.PrintStream(printed, true, StandardCharsets.UTF_8), server, keys, home);
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "curl -s -H 'Authorization: Bearer ([^']+)' '(http[^']*/v1/empresas/alteracoes[^']*)'");
        List<String> sent = new ArrayList<>();
        for (String l : printed.toString(StandardCharsets.UTF_8).lines().toList()) {
            java.util.regex.Matcher m = line.matcher(l.strip());
            if (m.matches()) {
                HttpResponse<String> r = CLIENT.send(
                        HttpRequest.newBuilder(URI.create(m.group(2)))
                                .header("Authorization", "Bearer " + m.group(1))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), l + "\n" + r.body());
                sent.add(m.group(2));
            }
        }
        assertEquals(2, sent.size(), "the demo prints a count and a page of the changes: " + printed);
    }

    /** The establishments a load keeps, read from the dump's files by the loader's reader alone. */
    private static Map<String, Establishment> read(Path dump, Path work) {
        Map<String, Establishment> out = new ConcurrentHashMap<>();
        DumpReader.open(LoadOptions.builder(dump)
                        .rejects(work.resolve("rejects.tsv"))
                        .scratch(work.resolve("scratch"))
                        .build())
                .readInto(e -> out.put(e.cnpj().value(), e));
        return out;
    }

    private static Account account(long credits) {
        Account a = server.store().accounts().create("feed " + UUID.randomUUID(), new Plan("feed", 1_000_000));
        if (credits > 0) {
            server.store()
                    .ledger()
                    .topUp(a.id(), CreditKind.CREDITS, credits, IdempotencyKey.of("feed:" + UUID.randomUUID()), "feed");
        }
        return a;
    }

    private static String key(Account a, Scope... scopes) {
        Set<Scope> set = scopes.length == 0 ? EnumSet.of(Scope.EMPRESAS_READ) : EnumSet.of(scopes[0], scopes);
        return issuer.issue(a.id(), "feed", set).secret();
    }

    private static long balance(Account a) {
        return server.store().ledger().balance(a.id(), CreditKind.CREDITS).posted();
    }

    private static HttpResponse<String> get(String pathAndQuery, String key, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(30));
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        try {
            return CLIENT.send(b.GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static HttpResponse<String> feed(String query, String key, String... headers) {
        HttpResponse<String> r = get("/v1/empresas/alteracoes" + query, key, headers);
        contract.check("/v1/empresas/alteracoes", r);
        return r;
    }

    // ---- the independent diff, from the dumps' establishments

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static Set<String> expectedTypes(Establishment p, Establishment n) {
        Set<String> t = new TreeSet<>();
        if (p == null) {
            t.add("abertura");
            return t;
        }
        if (!p.situacaoCadastral().equals(n.situacaoCadastral())) {
            t.add("situacao");
            if (n.situacaoCadastral().equals("08")) {
                t.add("baixa");
            }
        }
        if (!Objects.equals(p.uf(), n.uf())
                || !Objects.equals(p.municipio(), n.municipio())
                || !Objects.equals(blankToNull(p.bairro()), blankToNull(n.bairro()))
                || !Objects.equals(p.cep(), n.cep())
                || !Objects.equals(blankToNull(p.tipoLogradouro()), blankToNull(n.tipoLogradouro()))
                || !Objects.equals(blankToNull(p.logradouro()), blankToNull(n.logradouro()))
                || !Objects.equals(blankToNull(p.numero()), blankToNull(n.numero()))
                || !Objects.equals(blankToNull(p.complemento()), blankToNull(n.complemento()))) {
            t.add("endereco");
        }
        if (!Objects.equals(firstPhone(p), firstPhone(n)) || !Objects.equals(p.email(), n.email())) {
            t.add("contato");
        }
        if (!Objects.equals(p.cnaePrincipal(), n.cnaePrincipal())) {
            t.add("cnae");
        }
        if (!Objects.equals(porte(p), porte(n))) {
            t.add("porte");
        }
        if (!Objects.equals(capital(p), capital(n))) {
            t.add("capital");
        }
        return t;
    }

    private static String firstPhone(Establishment e) {
        return e.telefones().isEmpty() ? null : e.telefones().get(0).formatted();
    }

    private static String porte(Establishment e) {
        return e.company() == null ? null : e.company().porte();
    }

    private static Long capital(Establishment e) {
        return e.company() == null ? null : e.company().capitalSocialCentavos();
    }

    private static Map<String, Set<String>> expected() {
        Map<String, Set<String>> out = new HashMap<>();
        after.forEach((cnpj, n) -> {
            Set<String> t = expectedTypes(before.get(cnpj), n);
            if (!t.isEmpty()) {
                out.put(cnpj, t);
            }
        });
        return out;
    }

    private static List<JsonNode> everyItem(String query, String key) {
        List<JsonNode> items = new ArrayList<>();
        for (int page = 1; ; page++) {
            HttpResponse<String> r = feed(query + (query.isEmpty() ? "?" : "&") + "limite=200&pagina=" + page, key);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode body = json(r);
            body.path("dados").forEach(items::add);
            if (body.path("dados").size() < 200) {
                assertEquals(items.size(), body.path("paginacao").path("total").asLong());
                return items;
            }
        }
    }

    @Test
    void everyTypeIsServedAndEqualsAnIndependentDiffOfTheTwoDumps() {
        String key = key(account(1_000_000));
        Map<String, Set<String>> expected = expected();
        Map<String, Long> perType = new TreeMap<>();
        expected.values().forEach(ts -> ts.forEach(t -> perType.merge(t, 1L, Long::sum)));
        assertEquals(
                Set.of("abertura", "baixa", "situacao", "endereco", "contato", "cnae", "porte", "capital"),
                perType.keySet(),
                "the evolved month has every type: " + perType);
        for (var e : perType.entrySet()) {
            HttpResponse<String> r = feed("?apenas_total=true&tipos=" + e.getKey(), key);
            assertEquals(200, r.statusCode(), r.body());
            JsonNode body = json(r);
            assertEquals(e.getValue(), body.path("total").asLong(), "count of " + e.getKey() + ": " + r.body());
            assertEquals("2026-09", body.path("referencia").asText());
            assertEquals("2026-08", body.path("anterior").asText());
            assertEquals(0, body.path("creditos_consumidos").asLong());
        }
        List<JsonNode> items = everyItem("", key);
        Map<String, Set<String>> served = new HashMap<>();
        int compared = 0;
        for (JsonNode item : items) {
            String cnpj = item.path("empresa").path("cnpj").asText().replaceAll("[^0-9A-Z]", "");
            Set<String> types = new TreeSet<>();
            item.path("tipos").forEach(t -> types.add(t.asText()));
            assertFalse(served.containsKey(cnpj), "each CNPJ once");
            served.put(cnpj, types);
            Establishment p = before.get(cnpj);
            Establishment n = after.get(cnpj);
            JsonNode old = item.path("anteriores");
            JsonNode now = item.path("empresa");
            assertEquals(n.situacaoCadastral(), now.path("situacao_cadastral").asText(), "the new record");
            if (types.contains("situacao")) {
                assertEquals(
                        p.situacaoCadastral(), old.path("situacao_cadastral").asText());
                compared++;
            }
            if (types.contains("endereco")) {
                assertEquals(
                        Objects.toString(p.cep(), ""),
                        old.path("cep").asText("").replaceAll("[^0-9]", ""));
                assertEquals(p.uf(), old.path("uf").asText());
                assertEquals(n.uf(), now.path("uf").asText());
                compared++;
            }
            if (types.contains("contato")) {
                assertEquals(
                        p.email(),
                        old.path("email").isNull() ? null : old.path("email").asText());
                assertEquals(
                        firstPhone(p),
                        old.path("telefone").isNull()
                                ? null
                                : old.path("telefone").asText());
                compared++;
            }
            if (types.contains("cnae")) {
                assertEquals(p.cnaePrincipal(), old.path("cnae").asText().replaceAll("[^0-9]", ""));
                compared++;
            }
            if (types.contains("porte")) {
                assertEquals(porte(p), old.path("porte").asText());
                compared++;
            }
            if (types.contains("capital")) {
                Long c = capital(p);
                assertEquals(
                        c == null ? null : java.math.BigDecimal.valueOf(c, 2),
                        old.path("capital_social").isNull()
                                ? null
                                : new java.math.BigDecimal(
                                        old.path("capital_social").asText()));
                compared++;
            }
            if (types.contains("abertura")) {
                assertEquals(null, p);
                assertEquals(0, old.size());
            }
        }
        assertTrue(compared > 50, "previous values compared field by field: " + compared);
        assertEquals(expected, served);
    }

    @Test
    void filtersApplyToTheNewRecord() {
        String key = key(account(1_000_000));
        List<JsonNode> items = everyItem("?tipos=endereco&tipos=abertura&ufs=SP&com_email=true", key);
        long expected = expected().entrySet().stream()
                .filter(e -> e.getValue().contains("endereco") || e.getValue().contains("abertura"))
                .map(e -> after.get(e.getKey()))
                .filter(n -> n.uf().equals("SP") && n.email() != null)
                .count();
        assertTrue(expected > 0);
        assertEquals(expected, items.size());
        for (JsonNode item : items) {
            assertEquals("SP", item.path("empresa").path("uf").asText());
        }
    }

    @Test
    void aPageCostsOneCreditAnItemTheCountNothingAndAReplayNothingMore() {
        Account account = account(100);
        String key = key(account);
        HttpResponse<String> count = feed("?apenas_total=true", key);
        assertEquals(200, count.statusCode(), count.body());
        assertEquals(100, balance(account), "count-only is free");
        HttpResponse<String> page = feed("?limite=7&tipos=contato", key, "Idempotency-Key", "feed-page-1");
        assertEquals(200, page.statusCode(), page.body());
        assertEquals(7, json(page).path("dados").size());
        assertEquals(7, json(page).path("creditos_consumidos").asLong());
        assertEquals("93", page.headers().firstValue("X-Creditos-Saldo").orElseThrow());
        assertEquals(93, balance(account));
        HttpResponse<String> replay = feed("?limite=7&tipos=contato", key, "Idempotency-Key", "feed-page-1");
        assertEquals(200, replay.statusCode());
        assertEquals(page.body(), replay.body(), "the replay answers the first answer");
        assertEquals(93, balance(account), "a replay is not charged twice");
        HttpResponse<String> refused = feed("?limite=200", key(account(3)));
        assertEquals(402, refused.statusCode(), refused.body());
    }

    @Test
    void badParametersAre422NamingTheField() {
        String key = key(account(10));
        Map<String, String> cases = Map.of(
                "?tipos=fusao", "campo=tipos; regra=code",
                "?referencia=2026-13", "campo=referencia; regra=month",
                "?referencia=2026-07", "campo=referencia; regra=no-changes",
                "?referencia=2026-09&referencia=2026-08", "campo=referencia; regra=single-value",
                "?ufs=ZZ", "campo=ufs; regra=uf",
                "?limite=201", "campo=limite; regra=maximum",
                "?cor=azul", "campo=cor; regra=unknown-parameter");
        cases.forEach((query, detail) -> {
            HttpResponse<String> r = feed(query, key);
            assertEquals(422, r.statusCode(), query + ": " + r.body());
            assertEquals(detail, json(r).path("erro").path("detalhe").asText(), query);
        });
        HttpResponse<String> ok = feed("?referencia=2026-09&apenas_total=true", key);
        assertEquals(200, ok.statusCode(), ok.body());
        HttpResponse<String> noScope = feed("?apenas_total=true", key(account(10), Scope.MAILING_READ));
        assertEquals(403, noScope.statusCode(), noScope.body());
    }

    @Test
    void aMailingExportOfChangesDeliversOnlyTheChanges() throws Exception {
        Account account = account(10_000);
        String key = key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        HttpRequest create = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/mailing"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"filtros\": {\"ufs\": \"SP\", \"alteracoes\": {\"tipos\": [\"abertura\", \"cnae\"]}},"
                                + " \"quantidade\": 5000}"))
                .build();
        HttpResponse<String> created = CLIENT.send(create, HttpResponse.BodyHandlers.ofString());
        contract.check("/v1/mailing", "post", created);
        assertEquals(200, created.statusCode(), created.body());
        String id = json(created).path("job_id").asText();
        JsonNode done = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> st = get("/v1/mailing/" + id, key);
            assertEquals(200, st.statusCode(), st.body());
            done = json(st);
            if (!done.path("status").asText().equals("processando")) {
                break;
            }
            Thread.sleep(20);
        }
        assertEquals("concluido", done.path("status").asText(), done.toString());
        List<String> expected = new ArrayList<>();
        for (JsonNode item : everyItem("?ufs=SP&tipos=abertura&tipos=cnae", key(account(1_000_000)))) {
            expected.add(item.path("empresa").path("cnpj").asText().replaceAll("[^0-9A-Z]", ""));
        }
        assertTrue(expected.size() > 5, "the test data has SP openings and CNAE changes: " + expected.size());
        expected.forEach(c -> {
            Set<String> types = expectedTypes(before.get(c), after.get(c));
            assertTrue(types.contains("abertura") || types.contains("cnae"), c + " " + types);
        });
        assertEquals(expected.size(), done.path("quantidade_entregue").asInt());
        assertEquals(expected.size(), done.path("creditos_consumidos").asInt());
        assertEquals(10_000 - expected.size(), balance(account));
        HttpResponse<byte[]> file = CLIENT.send(
                HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + server.port() + "/v1/mailing/" + id + "/arquivo"))
                        .header("Authorization", "Bearer " + key)
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, file.statusCode());
        assertEquals(
                expected,
                MailingEndToEndTest.csvCnpjs(
                        MailingEndToEndTest.onlyEntry(file.body()).getValue()),
                "the export delivers the changes, in the feed's order, and nothing else");
    }
}
