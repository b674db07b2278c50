package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Scope;
import dev.cadastro.server.cli.DemoCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The company-data curl lines {@code ./cadastro demo} prints, each sent as curl would send it to a real
 * server with the demo account's keys: every line answers, and the lines of the account and the export
 * estimate answer what they promise.
 */
class DemoCurlLinesTest {

    /** One printed curl line as a request: method, URL, headers and body. */
    record Curl(String line, String method, URI uri, Map<String, String> headers, String body) {
        static Curl parse(String line) {
            String command = line.strip();
            int pipe = command.indexOf(" | ");
            if (pipe >= 0) {
                command = command.substring(0, pipe);
            }
            List<String> words = words(command);
            Map<String, String> headers = new LinkedHashMap<>();
            String body = null;
            String url = null;
            for (int i = 1; i < words.size(); i++) {
                String w = words.get(i);
                if (w.equals("-H")) {
                    String h = words.get(++i);
                    int colon = h.indexOf(':');
                    headers.put(
                            h.substring(0, colon).strip(),
                            h.substring(colon + 1).strip());
                } else if (w.equals("-d")) {
                    body = words.get(++i);
                } else if (!w.startsWith("-")) {
                    url = w;
                }
            }
            return new Curl(line, body == null ? "GET" : "POST", URI.create(url), headers, body);
        }

        /** Shell words: single quotes group and are removed, as the shell does. */
        private static List<String> words(String command) {
            List<String> words = new ArrayList<>();
            StringBuilder word = new StringBuilder();
            boolean quoted = false;
            boolean any = false;
            for (char ch : command.toCharArray()) {
                if (ch == '\'') {
                    quoted = !quoted;
                    any = true;
                } else if (ch == ' ' && !quoted) {
                    if (any) {
                        words.add(word.toString());
                        word.setLength(0);
                        any = false;
                    }
                } else {
                    word.append(ch);
                    any = true;
                }
            }
            if (any) {
                words.add(word.toString());
            }
            return words;
        }
    }

    private static List<String> printedLines(ServerFixture f) throws Exception {
        Path home = Files.createTempDirectory(Path.of("target"), "demo-curl-");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Map<Scope, String> keys =
                new DemoSetup(home).ensureAccount(f.server.store(), f.clock, new SecureRandom(), quiet);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        DemoCommand.printCurlLines(new PrintStream(printed, true, StandardCharsets.UTF_8), f.server, keys, home);
        return printed.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> l.strip().startsWith("curl "))
                .toList();
    }

    private static HttpResponse<String> send(ServerFixture f, Curl curl) {
        HttpRequest.Builder b = HttpRequest.newBuilder(curl.uri()).timeout(Duration.ofSeconds(30));
        curl.headers().forEach(b::header);
        b.method(
                curl.method(),
                curl.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(curl.body()));
        return f.send(b.build());
    }

    /** Follows the export of a download line until it is no longer processando, as the printed comment says. */
    private static void awaitExportEnd(ServerFixture f, Curl download) throws InterruptedException {
        String path = download.uri().getPath();
        Curl status = new Curl(
                download.line(),
                "GET",
                download.uri().resolve(path.substring(0, path.length() - "/arquivo".length())),
                download.headers(),
                null);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (json(send(f, status)).path("status").asText().equals("processando")) {
            assertTrue(System.nanoTime() < deadline, "the export of " + path + " still runs after 30 s");
            Thread.sleep(20);
        }
    }

    /**
     * Sends every printed line in order, as a reader pastes them: an id an earlier answer gave ({@code
     * job_id}, {@code envio_id}) replaces its placeholder; the code to check is a wrong one (the real one
     * is only in the operator's inbox), which is answered, not refused.
     */
    @Test
    void everyPrintedLineAnswersAndTheAccountAndEstimateLinesAnswerWhatTheyPromise() throws Exception {
        ServerFixture f = ServerFixture.get();
        List<String> printed = printedLines(f);
        assertTrue(printed.size() >= 15, "the demo prints a line for every endpoint: " + printed);
        Map<String, String> ids = new LinkedHashMap<>();
        List<String> paths = new ArrayList<>();
        for (String line : printed) {
            String filled = line;
            for (Map.Entry<String, String> id : ids.entrySet()) {
                filled = filled.replace(id.getKey(), id.getValue());
            }
            Curl curl = Curl.parse(filled.replace("\"CODE\"", "\"000000\""));
            if (curl.uri().getPath().endsWith("/arquivo")) {
                awaitExportEnd(f, curl);
            }
            paths.add(curl.method() + " " + curl.uri().getPath());
            if (curl.uri().getPath().endsWith("/v1/empresas/alteracoes")) {
                // The change lines need a register of two months, as the demo's is; this fixture's is one.
                // ChangeFeedEndToEndTest.theDemosChangeLinesAnswerOnTwoMonths sends them and demands 200.
                continue;
            }
            HttpResponse<String> r = send(f, curl);
            // The one line that shows a refusal says so in its comment; the rest is 200 (the person lines
            // use a CPF the simulated bureau has data on under each of their purposes).
            boolean refusalShown = r.statusCode() == 403 && r.body().contains("SEM_ESCOPO");
            assertTrue(r.statusCode() == 200 || refusalShown, r.statusCode() + " for " + filled + "\n" + r.body());
            if (r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
                JsonNode answer = json(r);
                if (answer.has("job_id")) {
                    ids.put("JOB_ID", answer.path("job_id").asText());
                }
                if (answer.has("envio_id")) {
                    ids.put("ENVIO_ID", answer.path("envio_id").asText());
                }
            }
            if (curl.uri().getPath().equals("/v1/conta")) {
                JsonNode c = json(r);
                assertEquals(DemoSetup.DEMO_DAILY_LIMIT, c.path("limite_diario").asLong(), r.body());
                assertEquals(
                        "empresas:read", c.path("chave").path("escopos").path(0).asText(), r.body());
                assertTrue(c.path("saldo_creditos").asLong() > 0, r.body());
            }
            if (curl.uri().getPath().equals("/v1/empresas/lote")) {
                JsonNode items = json(r).path("itens");
                List<String> statuses = new ArrayList<>();
                items.forEach(i -> statuses.add(i.path("status").asText()));
                assertEquals(List.of("encontrado", "duplicado", "cnpj_invalido"), statuses, r.body());
                assertTrue(items.path(0).path("creditos_consumidos").asLong() <= 1, r.body());
                assertEquals(
                        f.server.register().published().referenceMonth().map(Object::toString),
                        r.headers().firstValue("X-Dados-Referencia"),
                        "the comment of the headers line names the month");
            }
            if (curl.uri().getPath().equals("/v1/mailing/estimativa")) {
                JsonNode e = json(r);
                assertTrue(e.path("total").asLong() > 0, r.body());
                assertEquals(
                        Math.min(100, e.path("total").asLong()),
                        e.path("creditos_reservados").asLong(),
                        r.body());
            }
        }
        assertTrue(paths.contains("GET /v1/conta"), paths.toString());
        assertTrue(paths.contains("POST /v1/mailing/estimativa"), paths.toString());
        assertTrue(paths.contains("POST /v1/empresas/lote"), paths.toString());
        assertEquals(
                2,
                paths.stream().filter("GET /v1/empresas/alteracoes"::equals).count(),
                "the two change lines ChangeFeedEndToEndTest sends: " + paths);
    }
}
