package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.server.RawHttp.Answer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random request lines and headers, raw bytes included, written to the real server's socket: every
 * answer is a success or a 4xx in the company-data envelope, never a 5xx, never a closed connection
 * without an answer, never HTML.
 *
 * <p>Each request is one complete head (no CR or LF is generated inside a target or a value, and no
 * {@code Content-Length}, so that the server never waits for a body). Most requests carry the valid
 * key, so the parsing behind authentication is reached too.
 */
class HttpFuzzProperties {
    private static ServerFixture f;
    private static String key;
    private static String mailingKey;
    private static String creditKey;
    private static String smsKey;

    @BeforeContainer
    static void start() {
        f = ServerFixture.get();
        key = f.key(f.account(1_000_000_000L, 1_000_000_000L));
        mailingKey = f.key(
                f.account(1_000_000_000L, 1_000_000_000L),
                dev.cadastro.core.account.Scope.MAILING_EXPORT,
                dev.cadastro.core.account.Scope.MAILING_READ);
        creditKey = f.key(f.account(1_000_000_000L, 1_000_000_000L), dev.cadastro.core.account.Scope.CREDITO_READ);
        smsKey = f.key(f.account(0, 1_000_000_000L), dev.cadastro.core.account.Scope.SMS_OTP);
    }

    /** One generated request: its parts as raw bytes. */
    record Fuzz(String method, byte[] path, byte[] query, String auth, List<byte[][]> headers) {
        boolean hasHeader(String name) {
            return headers.stream()
                    .anyMatch(h -> new String(h[0], StandardCharsets.ISO_8859_1)
                            .strip()
                            .equalsIgnoreCase(name));
        }

        byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(method.getBytes(StandardCharsets.ISO_8859_1));
            out.write(' ');
            out.writeBytes(path);
            if (query != null) {
                out.write('?');
                out.writeBytes(query);
            }
            out.writeBytes(" HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.ISO_8859_1));
            if (auth != null) {
                out.writeBytes(auth.getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
            for (byte[][] h : headers) {
                out.writeBytes(h[0]);
                out.writeBytes(": ".getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes(h[1]);
                out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            return out.toByteArray();
        }

        @Override
        public String toString() {
            return new String(bytes(), StandardCharsets.ISO_8859_1)
                    .replace("\r\n", "\\r\\n ")
                    .replaceAll("[\\x00-\\x1f\\x7f-\\xff]", "?");
        }
    }

    @Property(tries = 1000)
    void everyAnswerIsASuccessOrAClientErrorInTheEnvelope(@ForAll("requests") Fuzz fuzz) throws Exception {
        Answer a = RawHttp.send(f.server.port(), fuzz.bytes());
        // The one 5xx that is the protocol's answer, not a fault: a transfer coding the server does not
        // implement (RFC 9112, section 6.1), still in the envelope (a HEAD answer has no body to check).
        boolean unimplementedCoding = a.status() == 501
                && ((fuzz.method().equals("HEAD") && fuzz.hasHeader("Transfer-Encoding"))
                        || a.json()
                                .path("erro")
                                .path("detalhe")
                                .asText()
                                .equals("campo=Transfer-Encoding; regra=chunked"));
        assertTrue(a.status() < 500 || unimplementedCoding, () -> a.status() + " for " + fuzz + "\n" + a);
        if (a.status() >= 400) {
            String type = a.header("Content-Type");
            assertNotNull(type, () -> "no Content-Type for " + fuzz + "\n" + a);
            assertTrue(type.startsWith("application/json"), () -> type + " for " + fuzz + "\n" + a);
            if (!fuzz.method().equals("HEAD")) {
                assertNotNull(a.code(), () -> "not the envelope for " + fuzz + "\n" + a);
            }
        } else {
            assertEquals(2, a.status() / 100, () -> a.status() + " for " + fuzz);
        }
    }

    @Property(tries = 300)
    void everyMailingBodyIsAnsweredAsAJobOrAClientErrorInTheEnvelope(@ForAll("mailingBodies") byte[] body)
            throws Exception {
        Answer a = postJson("/v1/mailing", mailingKey, body);
        String shown = new String(body, StandardCharsets.UTF_8);
        assertTrue(
                a.status() == 200 || a.status() == 402 || a.status() == 422,
                () -> a.status() + " for " + shown + "\n" + a);
        assertNotNull(a.json(), () -> "not JSON for " + shown + "\n" + a);
        if (a.status() == 200) {
            assertTrue(a.json().path("job_id").isTextual(), () -> shown + "\n" + a);
        } else {
            assertNotNull(a.code(), () -> "not the envelope for " + shown + "\n" + a);
        }
    }

    @Property(tries = 200)
    void everyCreditBodyIsAnsweredAsAReportOrAClientErrorInTheEnvelope(@ForAll("creditBodies") byte[] body)
            throws Exception {
        Answer a = postJson("/v1/credito/consultar", creditKey, body);
        String shown = new String(body, StandardCharsets.UTF_8);
        assertTrue(
                a.status() == 200 || a.status() == 404 || a.status() == 422,
                () -> a.status() + " for " + shown + "\n" + a);
        assertNotNull(a.json(), () -> "not JSON for " + shown + "\n" + a);
        if (a.status() == 200) {
            assertTrue(a.json().path("dados").path("documento").isTextual(), () -> shown + "\n" + a);
        } else {
            assertNotNull(a.code(), () -> "not the envelope for " + shown + "\n" + a);
        }
    }

    @Property(tries = 200)
    void everySmsCheckBodyIsAnsweredAsACheckOrAClientErrorInTheEnvelope(@ForAll("smsCheckBodies") byte[] body)
            throws Exception {
        Answer a = postJson("/v1/sms/otp/verificar", smsKey, body);
        String shown = new String(body, StandardCharsets.UTF_8);
        assertTrue(a.status() == 404 || a.status() == 422, () -> a.status() + " for " + shown + "\n" + a);
        assertNotNull(a.code(), () -> "not the envelope for " + shown + "\n" + a);
    }

    /** A POST of a raw JSON body with the key, on a connection of its own. */
    private static Answer postJson(String path, String key, byte[] body) throws Exception {
        return RawHttp.send(
                f.server.port(),
                RawHttp.concat(
                        RawHttp.latin1("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + key
                                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                                + "\r\nConnection: close\r\n\r\n"),
                        body));
    }

    @Provide
    Arbitrary<byte[]> smsCheckBodies() {
        Arbitrary<String> id = Arbitraries.oneOf(
                Arbitraries.of(
                        "\"sms_00000000000000000000000000000000\"",
                        "\"a\\u0000b\"",
                        "\"sms_\\u0000\"",
                        "\"\"",
                        "null",
                        "1",
                        "[]",
                        "\"" + "x".repeat(5000) + "\""),
                Arbitraries.strings()
                        .ofMaxLength(40)
                        .map(t -> "\"" + t.replace("\\", "").replace("\"", "") + "\""));
        Arbitrary<String> code = Arbitraries.of("\"123456\"", "\"12a\"", "\"\"", "123456", "null", "\"1\\u00002\"");
        Arbitrary<byte[]> json = net.jqwik.api.Combinators.combine(id, code)
                .as((i, c) -> ("{\"envio_id\": " + i + ", \"codigo\": " + c + "}").getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, json), net.jqwik.api.Tuple.of(2, rawBytes(48, "")));
    }

    @Provide
    Arbitrary<byte[]> creditBodies() {
        Arbitrary<String> documento = Arbitraries.oneOf(
                Arbitraries.of(
                        "\"123.456.789-09\"",
                        "\"12345678909\"",
                        "\"123.456.789-00\"",
                        "\"11.222.333/0001-81\"",
                        "\"11222333000180\"",
                        "\"12.ABC.345/01DE-35\"",
                        "\"\"",
                        "\" \"",
                        "12345678909",
                        "null",
                        "true",
                        "[\"12345678909\"]",
                        "{}"),
                Arbitraries.strings()
                        .withChars("0123456789.-/ ABCx")
                        .ofMaxLength(20)
                        .map(t -> "\"" + t + "\""));
        Arbitrary<String> extra =
                Arbitraries.of("", ", \"cpf\": \"12345678909\"", ", \"documento\": \"1\"", ", \"x\": 1");
        Arbitrary<byte[]> json = net.jqwik.api.Combinators.combine(documento, extra)
                .as((d, e) -> ("{\"documento\": " + d + e + "}").getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(7, json),
                net.jqwik.api.Tuple.of(2, rawBytes(48, "")),
                net.jqwik.api.Tuple.of(
                        1,
                        Arbitraries.of("", "{", "[]", "null", "{\"documento\": \"12345678909\"}}", "{\"a\":".repeat(40))
                                .map(t -> t.getBytes(StandardCharsets.UTF_8))));
    }

    @Provide
    Arbitrary<byte[]> mailingBodies() {
        Arbitrary<String> filterName = Arbitraries.of(
                "ufs", "municipios", "cnaes", "mei", "com_email", "capital_min", "abertura_de", "limite", "x", "");
        Arbitrary<String> value = Arbitraries.oneOf(
                Arbitraries.of(
                        "[\"SP\"]",
                        "[\"RJ\", \"MG\"]",
                        "[]",
                        "[1]",
                        "true",
                        "false",
                        "null",
                        "1e999",
                        "-1",
                        "\"2020-01-01\"",
                        "\"2020-13-45\"",
                        "{}",
                        "[\"S\u00e3o Paulo\"]",
                        "[[\"SP\"]]"),
                Arbitraries.strings()
                        .ofMaxLength(12)
                        .map(t -> "\"" + t.replace("\\", "").replace("\"", "") + "\""));
        Arbitrary<String> filters = Combinators.combine(filterName, value)
                .as((n, v) -> "\"" + n + "\": " + v)
                .list()
                .ofMaxSize(3)
                .map(l -> "{" + String.join(", ", l) + "}");
        Arbitrary<String> quantity = Arbitraries.of(
                "1", "10", "0", "50000", "50001", "-5", "1.5", "\"7\"", "null", "99999999999999999999999");
        Arbitrary<String> format = Arbitraries.of(
                "",
                ", \"formato\": \"csv\"",
                ", \"formato\": \"xlsx\"",
                ", \"formato\": \"pdf\"",
                ", \"formato\": 3",
                ", \"extra\": 1");
        Arbitrary<byte[]> json = Combinators.combine(filters, quantity, format)
                .as((fl, q, fo) ->
                        ("{\"filtros\": " + fl + ", \"quantidade\": " + q + fo + "}").getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(7, json),
                net.jqwik.api.Tuple.of(2, rawBytes(64, "")),
                net.jqwik.api.Tuple.of(
                        1,
                        Arbitraries.of(
                                        "",
                                        "{",
                                        "[]",
                                        "null",
                                        "{\"filtros\": {\"ufs\": [\"SP\"]}, \"quantidade\": 1}}",
                                        "{\"a\":".repeat(40))
                                .map(t -> t.getBytes(StandardCharsets.UTF_8))));
    }

    @Provide
    Arbitrary<Fuzz> requests() {
        Arbitrary<String> method = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.just("GET")),
                net.jqwik.api.Tuple.of(2, Arbitraries.of("HEAD", "POST", "OPTIONS", "DELETE", "PUT")),
                net.jqwik.api.Tuple.of(
                        1,
                        Arbitraries.strings()
                                .withChars("ABCXYZ-_!~")
                                .ofMinLength(1)
                                .ofMaxLength(8)));
        Arbitrary<byte[]> path = Arbitraries.oneOf(
                Arbitraries.of(
                                "/v1/empresas",
                                "/v1/openapi.json",
                                "/",
                                "/v1/empresas/",
                                "/v1/credito/consultar",
                                "/v1/enriquecimento/11222333000181")
                        .map(p -> p.getBytes(StandardCharsets.ISO_8859_1)),
                Combinators.combine(Arbitraries.of("/v1/empresas/", "/v1/", "/", "/v1/empresas/x/"), segment())
                        .as((p, s) -> concat(p.getBytes(StandardCharsets.ISO_8859_1), s)),
                Arbitraries.of("/v1/empresas/11222333000181", "/v1/empresas/12.ABC.345%2F01DE-35")
                        .map(p -> p.getBytes(StandardCharsets.ISO_8859_1)));
        Arbitrary<byte[]> query = Arbitraries.oneOf(
                Arbitraries.just((byte[]) null), queryString(), wellFormedQuery(), Arbitraries.just(new byte[0]));
        Arbitrary<String> auth = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.just("Authorization: Bearer KEY")),
                net.jqwik.api.Tuple.of(2, Arbitraries.just((String) null)),
                net.jqwik.api.Tuple.of(
                        2,
                        Arbitraries.of(
                                "X-API-Key: KEY",
                                "Authorization: Basic KEY",
                                "Authorization: bearer KEY",
                                "Authorization: Bearer  KEY ",
                                "Authorization: Bearer cad_",
                                "X-API-Key: cad_aaaaaaaaaaaa_x")));
        Arbitrary<byte[][]> header = Combinators.combine(
                        Arbitraries.of(
                                "Accept-Language",
                                "Idempotency-Key",
                                "X-API-Key",
                                "Accept",
                                "X-Note",
                                "If-None-Match",
                                "Transfer-Encoding",
                                "Expect",
                                "Connection"),
                        rawValue())
                .as((n, v) -> new byte[][] {n.getBytes(StandardCharsets.ISO_8859_1), v});
        return Combinators.combine(method, path, query, auth, header.list().ofMaxSize(3))
                .as((m, p, q, a, h) -> new Fuzz(m, p, q, a == null ? null : a.replace("KEY", key), h));
    }

    /** Bytes of a path segment: anything but space, CR, LF, '?', '/' and '#'. */
    private Arbitrary<byte[]> segment() {
        return rawBytes(24, "\r\n ?/#");
    }

    /** A query of raw bytes: anything but space, CR, LF and '#'. */
    private Arbitrary<byte[]> queryString() {
        return rawBytes(80, "\r\n #");
    }

    /** A header value of raw bytes: anything but CR and LF. */
    private Arbitrary<byte[]> rawValue() {
        return rawBytes(40, "\r\n");
    }

    /** Real parameter names with fuzzed values, to reach the query's parser. */
    private Arbitrary<byte[]> wellFormedQuery() {
        Arbitrary<String> name = Arbitraries.of(
                "ufs",
                "municipios",
                "limite",
                "pagina",
                "apenas_total",
                "cnaes",
                "capital_min",
                "situacao_cadastral",
                "portes",
                "bairros",
                "ddds",
                "bogus");
        Arbitrary<byte[]> pair = Combinators.combine(name, rawBytes(16, "\r\n #&"))
                .as((n, v) -> concat((n + "=").getBytes(StandardCharsets.ISO_8859_1), v));
        return pair.list().ofMinSize(1).ofMaxSize(4).map(pairs -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int i = 0; i < pairs.size(); i++) {
                if (i > 0) {
                    out.write('&');
                }
                out.writeBytes(pairs.get(i));
            }
            return out.toByteArray();
        });
    }

    /**
     * Bytes weighted toward what breaks decoders: percent signs and hex digits, '+', '=', '&', UTF-8
     * lead and continuation bytes, controls, and plain letters.
     */
    private static Arbitrary<byte[]> rawBytes(int maxLength, String excluded) {
        Arbitrary<Integer> oneByte = Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(4, Arbitraries.integers().between('a', 'z')),
                        net.jqwik.api.Tuple.of(
                                3, Arbitraries.of((int) '%', (int) '+', (int) '=', (int) '&', (int) ';')),
                        net.jqwik.api.Tuple.of(
                                3,
                                Arbitraries.of(
                                        "0123456789ABCDEFabcdef".chars().boxed().toList())),
                        net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0x80, 0xff)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 0x1f)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.of(0x7f, (int) ' ', (int) '"', (int) '{', (int) '\\')))
                .filter(b -> excluded.indexOf(b) < 0);
        return oneByte.list().ofMaxSize(maxLength).map(list -> {
            byte[] out = new byte[list.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) (int) list.get(i);
            }
            return out;
        });
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
