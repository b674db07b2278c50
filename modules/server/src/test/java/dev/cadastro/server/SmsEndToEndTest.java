package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Phone;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.providers.Fault;
import dev.cadastro.providers.FaultPlan;
import dev.cadastro.providers.ProviderPolicy;
import dev.cadastro.providers.SmsInbox;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * SMS one-time codes through a real socket against the embedded PostgreSQL and the simulated provider,
 * on a listener of its own (its clock, fault plan, keys and inbox). Every answer and every log line of
 * the run is kept, and the last test searches them for every code the provider delivered.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
@org.junit.jupiter.params.ParameterizedClass
@org.junit.jupiter.params.provider.EnumSource(TestRuntime.class)
class SmsEndToEndTest {
    /** The runtime of this run of the class: the JDK's, or Jetty through the servlet bridge. */
    @org.junit.jupiter.params.Parameter
    TestRuntime runtime;

    private static final String SEND = "/v1/sms/otp";
    private static final String CHECK = "/v1/sms/otp/verificar";
    private static final Pattern CODE = Pattern.compile("e ([0-9]{4,8})\\.");
    private static final Duration RECEIPT_DELAY = Duration.ofMillis(100);
    private static final AtomicInteger PHONES = new AtomicInteger();

    private static ServerFixture f;
    private static final Instant START = Instant.parse("2026-11-23T15:00:00Z");
    private static final ManualClock clock = new ManualClock(START);
    private static final FaultPlan faults = FaultPlan.none();
    private static final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
    private static final ConcurrentLinkedQueue<String> logs = new ConcurrentLinkedQueue<>();
    private static final Handler capture = new Handler() {
        private final SimpleFormatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            logs.add(formatter.format(record));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private static Level rootLevel;
    private static SmsOptions.Sms sms;
    private static SmsInbox inbox;
    private static TestRuntime.Listener http;
    private static OpenApiContract contract;

    @org.junit.jupiter.params.BeforeParameterizedClassInvocation
    static void start(TestRuntime runtime) throws IOException {
        f = ServerFixture.on(runtime);
        // Each run of the class (one per runtime) starts at the same instant and checks its own answers and logs.
        clock.set(START);
        seen.clear();
        logs.clear();
        Logger root = Logger.getLogger("");
        rootLevel = root.getLevel();
        root.setLevel(Level.ALL);
        root.addHandler(capture);
        Path dir = Files.createTempDirectory(Path.of("target"), "sms-");
        byte[] secret = new byte[32];
        Arrays.fill(secret, (byte) 7);
        SmsOptions options = SmsOptions.under(dir)
                .withFaults(faults)
                .withReceiptDelay(RECEIPT_DELAY)
                .withKeys(new Keyring(List.of(new Keyring.Key("e2e", secret)), "e2e"))
                .withPolicy(ProviderPolicy.defaults().toBuilder()
                        .slidingWindowSize(10_000)
                        .minimumCalls(10_000)
                        .build());
        sms = options.build(clock);
        inbox = SmsInbox.at(options.inbox());
        http = f.listen(CompanyDataRoutes.router(
                f.server.register(),
                f.server.store(),
                f.server.store().admission(100_000, clock),
                clock,
                f.server.mailing(),
                f.server.providers(),
                sms));
        contract = new OpenApiContract(new String(
                dev.cadastro.http.companydata.CompanyDataApi.openApiDocument(),
                java.nio.charset.StandardCharsets.UTF_8));
    }

    @org.junit.jupiter.params.AfterParameterizedClassInvocation
    static void stop() {
        http.close();
        sms.close();
        Logger root = Logger.getLogger("");
        root.removeHandler(capture);
        root.setLevel(rootLevel);
    }

    // ---- helpers ----

    /** A new mobile number per call, so tests never share a phone's limits. */
    private static String phone() {
        return "1198" + String.format("%07d", 1_000_000 + PHONES.incrementAndGet());
    }

    private static Account account(long sms) {
        Account a = f.account(0, 1_000_000);
        if (sms > 0) {
            f.server
                    .store()
                    .ledger()
                    .topUp(a.id(), CreditKind.SMS_CREDITS, sms, IdempotencyKey.of("sms:" + UUID.randomUUID()), "e2e");
        }
        return a;
    }

    private static Balance smsBalance(Account a) {
        return f.server.store().ledger().balance(a.id(), CreditKind.SMS_CREDITS);
    }

    private static HttpResponse<String> post(String path, String body, String key) {
        return post(path, body, key, null);
    }

    private static HttpResponse<String> post(String path, String body, String key, String idempotencyKey) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (key != null) {
            b.header("Authorization", "Bearer " + key);
        }
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        HttpResponse<String> r = f.send(b.build());
        seen.add(r.statusCode() + " " + r.headers().map() + " " + r.body());
        return r;
    }

    private static HttpResponse<String> send(String key, String phone, Integer validity) {
        String body = "{\"telefone\": \"" + phone + "\", \"digitos\": 8"
                + (validity == null ? "" : ", \"validade_segundos\": " + validity) + "}";
        HttpResponse<String> r = post(SEND, body, key);
        contract.check(SEND, "post", r);
        return r;
    }

    private static HttpResponse<String> check(String key, String envioId, String codigo) {
        HttpResponse<String> r =
                post(CHECK, "{\"envio_id\": \"" + envioId + "\", \"codigo\": \"" + codigo + "\"}", key);
        contract.check(CHECK, "post", r);
        return r;
    }

    private static String sent(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        return ServerFixture.json(r).get("envio_id").asText();
    }

    /** The code of a dispatch, read where only an operator can: the simulated provider's inbox. */
    private static String code(String phone, String envioId) {
        for (SmsInbox.Message m : inbox.read(Phone.of(phone), 100)) {
            if (m.reference().equals(envioId)) {
                Matcher matcher = CODE.matcher(m.text());
                assertTrue(matcher.find(), m.text());
                return matcher.group(1);
            }
        }
        throw new AssertionError("no message of " + envioId + " in the inbox");
    }

    private static String wrong(String code) {
        return code.equals("00000000") ? "00000001" : "00000000";
    }

    private static void assertCheck(HttpResponse<String> r, boolean valid, String status, int left) {
        assertEquals(200, r.statusCode(), r.body());
        JsonNode j = ServerFixture.json(r);
        assertEquals(valid, j.get("valido").asBoolean(), r.body());
        assertEquals(status, j.get("status").asText(), r.body());
        assertEquals(left, j.get("tentativas_restantes").asInt(), r.body());
    }

    private static void assertError(HttpResponse<String> r, int status, String code) {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(code, ServerFixture.json(r).at("/erro/code").asText(), r.body());
    }

    // ---- sending ----

    @Test
    void aSendAnswersTheDispatchNeverTheCodeAndChargesOneSmsCredit() {
        Account a = account(3);
        String key = f.key(a, Scope.SMS_OTP);
        String phone = phone();
        HttpResponse<String> r = send(key, "+55 (" + phone.substring(0, 2) + ") " + phone.substring(2), 300);
        String id = sent(r);
        JsonNode j = ServerFixture.json(r);
        assertEquals(Set.of("envio_id", "expira_em", "creditos_sms_consumidos"), fieldNames(j));
        assertEquals(1, j.get("creditos_sms_consumidos").asInt());
        assertEquals("2026-11-23T12:05:00-03:00", j.get("expira_em").asText());
        assertFalse(r.body().contains(code(phone, id)));
        assertEquals(2, smsBalance(a).posted());
        assertEquals(0, f.balance(a), "the data credits are another balance");
    }

    private static Set<String> fieldNames(JsonNode j) {
        Set<String> names = new java.util.HashSet<>();
        j.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aRetryUnderTheSameIdempotencyKeyAnswersTheFirstDispatchOnceChargedAndAnotherAccountsKeyIsItsOwn() {
        Account a = account(3);
        Account b = account(3);
        String keyA = f.key(a, Scope.SMS_OTP);
        String keyB = f.key(b, Scope.SMS_OTP);
        String phone = phone();
        String body = "{\"telefone\": \"" + phone + "\", \"validade_segundos\": 300}";
        String idem = "retry-" + UUID.randomUUID();
        HttpResponse<String> first = post(SEND, body, keyA, idem);
        contract.check(SEND, "post", first);
        // At once, within the phone's 30 s: the retry is answered, not refused by the limit.
        HttpResponse<String> again = post(SEND, body, keyA, idem);
        contract.check(SEND, "post", again);
        assertEquals(sent(first), sent(again));
        assertEquals(first.body(), again.body());
        assertEquals(2, smsBalance(a).posted(), "one SMS credit for both");
        assertEquals(
                1,
                inbox.read(Phone.of(phone), 100).stream()
                        .filter(m -> m.reference().equals(sent(first)))
                        .count(),
                "one message sent");
        // The same key from another account is that account's own request: its own dispatch and charge.
        HttpResponse<String> other = post(SEND, body, keyB, idem);
        contract.check(SEND, "post", other);
        assertNotEquals(sent(first), sent(other));
        assertEquals(2, smsBalance(b).posted());
        assertEquals(2, smsBalance(a).posted());
    }

    @Test
    void thirtySecondsAndFivePerHourPerAccountAndPhoneWithTheRightRetryAfter() {
        Account a = account(20);
        String key = f.key(a, Scope.SMS_OTP);
        String phone = phone();
        Instant t0 = clock.instant();
        sent(send(key, phone, null));
        clock.advance(Duration.ofSeconds(12));
        HttpResponse<String> limited = send(key, phone, null);
        assertError(limited, 429, "LIMITE_OTP");
        assertEquals("18", limited.headers().firstValue("Retry-After").orElseThrow());
        clock.advance(Duration.ofSeconds(18));
        sent(send(key, phone, null));
        sent(send(f.key(account(1), Scope.SMS_OTP), phone, null)); // another account: its own limit
        for (int i = 0; i < 3; i++) {
            clock.advance(Duration.ofSeconds(30));
            sent(send(key, phone, null));
        }
        clock.advance(Duration.ofSeconds(30)); // t0 + 150 s, five sent: the first leaves the hour at t0 + 3600 s
        HttpResponse<String> hourly = send(key, phone, null);
        assertError(hourly, 429, "LIMITE_OTP");
        assertEquals("3450", hourly.headers().firstValue("Retry-After").orElseThrow());
        assertEquals(15, smsBalance(a).posted(), "refused sends charged nothing");
        clock.set(t0.plusSeconds(3600));
        sent(send(key, phone, null));
        clock.advance(Duration.ofHours(2));
    }

    @Test
    void anOutageIs502ChargesNothingAndDoesNotCountAgainstThePhone() {
        Account a = account(2);
        String key = f.key(a, Scope.SMS_OTP);
        String phone = phone();
        faults.forDocument(phone, new Fault.Down());
        try {
            assertError(send(key, phone, null), 502, "SMS_INDISPONIVEL");
            assertError(send(key, phone, null), 502, "SMS_INDISPONIVEL");
        } finally {
            faults.clear();
        }
        assertEquals(new Balance(CreditKind.SMS_CREDITS, 2, 0), smsBalance(a));
        sent(send(key, phone, null)); // the same second: the failed sends were not counted
        assertEquals(1, smsBalance(a).posted());
    }

    @Test
    void anEmptySmsBalanceIs402() {
        Account a = account(0);
        f.server
                .store()
                .ledger()
                .topUp(a.id(), CreditKind.CREDITS, 100, IdempotencyKey.of("c:" + UUID.randomUUID()), "data credits");
        assertError(send(f.key(a, Scope.SMS_OTP), phone(), null), 402, "SEM_CREDITOS");
        assertEquals(100, f.balance(a), "the other balance is not used");
    }

    @Test
    void aFailedDeliveryReturnsTheCreditOnceThoughTheReceiptArrivesTwice() {
        Account a = account(2);
        String key = f.key(a, Scope.SMS_OTP);
        String failing = "2198765" + "0000";
        String id = sent(send(key, failing, null));
        // The receipt may already have come (a loaded machine): the charge is read from the ledger's entries.
        assertEquals(
                List.of(-1L),
                f.server.store().ledger().statement(a.id(), CreditKind.SMS_CREDITS, 10).stream()
                        .filter(l -> l.type().name().equals("HOLD_POST"))
                        .map(l -> l.amount())
                        .toList(),
                "charged once when the provider accepted");
        Await.until(
                "the credit returned when the failed-delivery receipt came",
                () -> smsBalance(a).posted() == 2,
                Duration.ofSeconds(20));
        // The provider sends the receipt again; the use case logs that it took it and found it settled.
        Await.until(
                "the second receipt of " + id + " taken",
                () -> logs.stream()
                        .anyMatch(l -> l.contains("sms dispatch " + id + ": delivery failed (already settled)")),
                Duration.ofSeconds(20));
        assertEquals(2, smsBalance(a).posted(), "returned once");
        assertEquals(
                1,
                logs.stream()
                        .filter(l -> l.contains("sms dispatch " + id + ": delivery failed; SMS credit returned"))
                        .count());
        assertEquals(
                1,
                f.server.store().ledger().statement(a.id(), CreditKind.SMS_CREDITS, 10).stream()
                        .filter(l -> l.type().name().equals("REFUND"))
                        .count());
    }

    // ---- checking ----

    @Test
    void aHundredParallelWrongChecksCountExactlyFiveThenTheRightCodeIsRefused() throws Exception {
        Account a = account(1);
        String key = f.key(a, Scope.SMS_OTP);
        String phone = phone();
        String id = sent(send(key, phone, null));
        String code = code(phone, id);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> checks = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(50)) {
            for (int i = 0; i < 100; i++) {
                checks.add(pool.submit(() -> {
                    go.await();
                    return check(key, id, wrong(code));
                }));
            }
            go.countDown();
            int pending = 0;
            int blocked = 0;
            for (Future<HttpResponse<String>> c : checks) {
                JsonNode j = ServerFixture.json(c.get());
                assertFalse(j.get("valido").asBoolean());
                switch (j.get("status").asText()) {
                    case "pendente" -> pending++;
                    case "bloqueado" -> blocked++;
                    default -> throw new AssertionError(j.toString());
                }
            }
            assertEquals(4, pending, "the first four wrong checks left it pending");
            assertEquals(96, blocked);
        }
        assertCheck(check(key, id, code), false, "bloqueado", 0);
        try (var c = f.server.store().dataSource().getConnection();
                var ps = c.prepareStatement("SELECT attempts FROM sms_dispatches WHERE public_id = ?")) {
            ps.setString(1, id);
            try (var rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(5, rs.getInt(1), "exactly five attempts were counted");
            }
        }
    }

    @Test
    void theCodeExpiresAtTheExactSecondOfItsTerm() {
        Account a = account(2);
        String key = f.key(a, Scope.SMS_OTP);
        String phone = phone();
        Instant t0 = clock.instant();
        String first = sent(send(key, phone, 60));
        clock.set(t0.plusSeconds(59));
        assertCheck(check(key, first, wrong(code(phone, first))), false, "pendente", 4);
        clock.set(t0.plusSeconds(60));
        assertCheck(check(key, first, code(phone, first)), false, "expirado", 0);
        clock.set(t0.plusSeconds(90));
        String second = sent(send(key, phone, 60));
        clock.set(t0.plusSeconds(150).minusMillis(1));
        assertCheck(check(key, second, code(phone, second)), true, "verificado", 0);
        clock.advance(Duration.ofHours(2));
    }

    @Test
    void aCodeIsValidOnce() {
        Account a = account(1);
        String key = f.key(a, Scope.SMS_OTP);
        String phone = phone();
        String id = sent(send(key, phone, null));
        assertCheck(check(key, id, wrong(code(phone, id))), false, "pendente", 4);
        assertCheck(check(key, id, code(phone, id)), true, "verificado", 0);
        assertCheck(check(key, id, code(phone, id)), false, "verificado", 0);
        assertEquals(0, smsBalance(a).available(), "checks cost nothing");
    }

    @Test
    void anotherAccountsDispatchIs404LikeAnUnknownOne() {
        Account owner = account(1);
        String phone = phone();
        String id = sent(send(f.key(owner, Scope.SMS_OTP), phone, null));
        String stranger = f.key(account(1), Scope.SMS_OTP);
        assertError(check(stranger, id, code(phone, id)), 404, "NAO_ENCONTRADO");
        assertError(check(stranger, "sms_" + "0".repeat(32), "12345678"), 404, "NAO_ENCONTRADO");
        assertCheck(check(f.key(owner, Scope.SMS_OTP), id, code(phone, id)), true, "verificado", 0);
    }

    @Test
    void everyRefusalCarriesItsCode() {
        Account a = account(1);
        String key = f.key(a, Scope.SMS_OTP);
        String other = f.key(account(1), Scope.EMPRESAS_READ);
        String phone = phone();
        assertError(post(SEND, "{\"telefone\": \"" + phone + "\"}", null), 401, "SEM_CHAVE");
        assertError(post(SEND, "{\"telefone\": \"" + phone + "\"}", "cad_invalid"), 401, "CHAVE_INVALIDA");
        assertError(post(SEND, "{\"telefone\": \"" + phone + "\"}", other), 403, "SEM_ESCOPO");
        assertError(post(CHECK, "{\"envio_id\": \"x\", \"codigo\": \"1234\"}", other), 403, "SEM_ESCOPO");
        HttpResponse<String> fixed = send(key, "(11) 3234-5678", null);
        assertError(fixed, 422, "PARAMETRO_INVALIDO");
        assertTrue(ServerFixture.json(fixed).at("/erro/mensagem").asText().contains("só são aceitos celulares"));
        assertError(send(key, "20987654321", null), 422, "PARAMETRO_INVALIDO");
        assertError(send(key, phone, 59), 422, "PARAMETRO_INVALIDO");
        assertError(send(key, phone, 3601), 422, "PARAMETRO_INVALIDO");
        assertError(post(SEND, "{\"telefone\": \"" + phone + "\", \"digitos\": 3}", key), 422, "PARAMETRO_INVALIDO");
        assertError(post(SEND, "{\"telefone\": \"" + phone + "\", \"x\": 1}", key), 422, "PARAMETRO_INVALIDO");
        assertError(post(SEND, "{}", key), 422, "PARAMETRO_INVALIDO");
        String id = sent(send(key, phone, null));
        assertError(
                post(CHECK, "{\"envio_id\": \"" + id + "\", \"codigo\": 12345678}", key), 422, "PARAMETRO_INVALIDO");
        assertError(check(key, id, "12ab"), 422, "PARAMETRO_INVALIDO");
        assertError(post(CHECK, "{\"codigo\": \"1234\"}", key), 422, "PARAMETRO_INVALIDO");
        assertCheck(check(key, id, wrong(code(phone, id))), false, "pendente", 4); // 422s counted no attempt
        assertError(send(key, phone, null), 429, "LIMITE_OTP");
        assertError(send(key, phone(), null), 402, "SEM_CREDITOS");
        clock.advance(Duration.ofHours(2));
    }

    @Test
    void zzNoCodeAppearsInAnyAnswerOrLogLineOfTheRun() {
        // Last by name (MethodName order); it also sends and checks itself, so it never passes empty.
        Account a = account(2);
        String key = f.key(a, Scope.SMS_OTP);
        String phone = phone();
        String id = sent(send(key, phone, null));
        check(key, id, wrong(code(phone, id)));
        check(key, id, code(phone, id));
        List<String> codes = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(inbox.file())) {
                Matcher m = CODE.matcher(line);
                if (m.find()) {
                    codes.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertTrue(codes.size() >= 2, "codes delivered: " + codes.size());
        assertTrue(logs.stream().anyMatch(l -> l.contains("sms dispatch")), "the use case's log lines were captured");
        for (String code : codes) {
            for (String answer : seen) {
                assertFalse(answer.contains(code), "an answer contains a code: " + answer);
            }
            for (String line : logs) {
                assertFalse(line.contains(code), "a log line contains a code: " + line);
            }
        }
    }
}
