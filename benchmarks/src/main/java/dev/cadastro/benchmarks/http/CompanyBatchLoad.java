package dev.cadastro.benchmarks.http;

import dev.cadastro.benchmarks.Flags;
import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.company.BatchLookupOutcome;
import dev.cadastro.core.company.CompanyService;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.http.companydata.SearchParameters;
import dev.cadastro.jetty.RuntimeOptions;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.DemoSetup;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.store.Database;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The batch CNPJ lookup, {@code POST /v1/empresas/lote}, with 1,000 CNPJs per batch: its latency in the
 * engine ({@link CompanyService#batch} over the published {@code LuceneRegister} and the {@code PgLedger}
 * of a {@link CadastroServer}, as the route calls it, without HTTP) and through HTTP (a real socket, the
 * JDK client on one keep-alive connection, JSON of 1,000 records included), one batch at a time.
 *
 * <p>Scenarios, each of {@code --batches} measured batches after {@code --warmup} unmeasured ones:
 *
 * <ul>
 *   <li>{@code engine-new}, {@code http-new}: 1,000 distinct CNPJs drawn from the index, each batch by a new
 *       account, so every record is charged (1,000 ledger entries written in the batch's one statement);
 *   <li>{@code engine-repeat}, {@code http-repeat}: the same account again with a batch it already paid
 *       today: every record is a free repeat (the ledger finds 1,000 used keys, writes none);
 *   <li>{@code engine-register}, {@code engine-ledger}: the two halves of {@code engine-new} alone, {@code
 *       RegisterSearch.lookupAll} of the batch's CNPJs and {@code Ledger.chargeInOrder} of its 1,000 new
 *       charges, to tell where the batch's time goes;
 *   <li>{@code http-lookup1000}: the peer, the same 1,000 CNPJs one {@code GET /v1/empresas/{cnpj}} at a
 *       time on the same connection (by a new account, so each is charged), the way a client without the
 *       batch does it.
 * </ul>
 *
 * <p>After each scenario the charged credits are checked against the ledger (a mismatch stops the run
 * with exit status 1). The index is {@link DemoSetup}'s, of {@code --establishments} synthetic
 * establishments, generated and loaded under {@code --home} on first use.
 *
 * <p>Usage: {@code java -Xmx2g -cp benchmarks/target/benchmarks.jar
 * dev.cadastro.benchmarks.http.CompanyBatchLoad [--home benchmarks/data/lote] [--establishments 1000000]
 * [--batches 200] [--warmup 50] [--size 1000] [--scenarios engine-register,engine-ledger,...]}.
 */
public final class CompanyBatchLoad {
    private static final long CREDITS = 1_000_000;

    private CompanyBatchLoad() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = Flags.pairs(
                args, List.of("--home", "--establishments", "--batches", "--warmup", "--size", "--scenarios"));
        Path home = Path.of(o.getOrDefault("--home", "benchmarks/data/lote"));
        long establishments = Long.parseLong(o.getOrDefault("--establishments", "1000000"));
        int batches = Integer.parseInt(o.getOrDefault("--batches", "200"));
        int warmup = Integer.parseInt(o.getOrDefault("--warmup", "50"));
        int size = Integer.parseInt(o.getOrDefault("--size", "1000"));
        PrintStream out = System.out;
        DemoSetup data = new DemoSetup(home);
        data.ensureIndex(establishments, out);
        Clock clock = Clock.systemUTC();
        try (CadastroServer server = CadastroServer.start(EngineConfig.builder(
                        data.index(),
                        Database.builder().embedded(data.database()).build())
                .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .runtime(RuntimeOptions.defaults())
                .requestsPerMinute(OptionalLong.of(10_000_000))
                .clock(clock)
                .build())) {
            List<String> pool = cnpjs(server, size * 4);
            out.printf(
                    "batch lookup: %d CNPJs per batch drawn from %d, %d measured batches after %d warm-up, index of"
                            + " %d establishments, %d CPUs, JDK %s%n",
                    size,
                    pool.size(),
                    batches,
                    warmup,
                    server.register().published().documents(),
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version());
            CompanyService engine =
                    new CompanyService(server.register(), server.store().ledger(), new CostRules(clock));
            ApiKeyIssuer issuer =
                    new ApiKeyIssuer(server.store().accounts(), server.store().apiKeys(), clock, new SecureRandom());
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            URI lote = URI.create("http://127.0.0.1:" + server.port() + "/v1/empresas/lote");
            Random random = new Random(7);
            int failures = 0;
            List<String> scenarios = List.of(o.getOrDefault(
                            "--scenarios",
                            "engine-register,engine-ledger,engine-new,engine-repeat,http-new,http-repeat,http-lookup1000")
                    .split(","));
            for (String scenario : scenarios) {
                int runs = scenario.equals("http-lookup1000") ? Math.max(5, batches / 20) : batches;
                int warm = scenario.equals("http-lookup1000") ? Math.max(2, warmup / 20) : warmup;
                long[] nanos = new long[runs];
                long expected = 0;
                List<Account> accounts = new ArrayList<>();
                for (int i = 0; i < warm + runs; i++) {
                    List<String> batch = draw(pool, size, random);
                    boolean repeat = scenario.endsWith("repeat");
                    IssuedApiKey key = newAccount(server, issuer, scenario, i);
                    Account account =
                            server.store().accounts().require(key.key().account());
                    Principal principal = new Principal(key.key(), account);
                    if (repeat) {
                        // Paid once, unmeasured: the measured batch repeats it the same day.
                        engine.batch(principal, batch);
                    }
                    long t0 = System.nanoTime();
                    long charged;
                    if (scenario.equals("engine-register")) {
                        List<dev.cadastro.core.document.Cnpj> parsed = batch.stream()
                                .map(dev.cadastro.core.document.Cnpj::of)
                                .toList();
                        charged = server.register().lookupAll(parsed).stream().allMatch(java.util.Optional::isPresent)
                                ? size
                                : -1;
                    } else if (scenario.equals("engine-ledger")) {
                        CostRules rules = new CostRules(clock);
                        List<dev.cadastro.core.ledger.ChargeRequest> charges = batch.stream()
                                .map(c -> rules.companyLookup(
                                        principal.accountId(), dev.cadastro.core.document.Cnpj.of(c)))
                                .toList();
                        charged = server.store().ledger().chargeInOrder(charges).stream()
                                .mapToLong(r -> r.orElseThrow().charged())
                                .sum();
                    } else if (scenario.startsWith("engine")) {
                        BatchLookupOutcome outcome = engine.batch(principal, batch);
                        charged = outcome.creditsCharged();
                    } else if (scenario.equals("http-lookup1000")) {
                        charged = 0;
                        for (String c : batch) {
                            HttpResponse<String> r = http.send(
                                    HttpRequest.newBuilder(URI.create(
                                                    "http://127.0.0.1:" + server.port() + "/v1/empresas/" + c))
                                            .header("Authorization", "Bearer " + key.secret())
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
                            if (r.statusCode() != 200) {
                                throw new IllegalStateException(r.statusCode() + " " + r.body());
                            }
                            charged += creditsOf(r.body());
                        }
                    } else {
                        HttpResponse<String> r = http.send(
                                HttpRequest.newBuilder(lote)
                                        .header("Authorization", "Bearer " + key.secret())
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofString(body(batch)))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() != 200) {
                            throw new IllegalStateException(r.statusCode() + " " + r.body());
                        }
                        charged = creditsOf(r.body());
                    }
                    long t = System.nanoTime() - t0;
                    if (i >= warm) {
                        nanos[i - warm] = t;
                        expected += repeat ? 0 : size;
                        accounts.add(account);
                        if (charged != (repeat ? 0 : size)) {
                            out.println("ANOMALY " + scenario + ": batch " + i + " charged " + charged);
                            failures++;
                        }
                    }
                }
                long ledger = 0;
                if (scenario.equals("engine-register")) {
                    // Nothing was charged: count what the batch would have.
                    ledger = expected;
                    accounts.clear();
                }
                for (Account a : accounts) {
                    ledger += CREDITS
                            - server.store()
                                    .ledger()
                                    .balance(a.id(), CreditKind.CREDITS)
                                    .posted();
                }
                long paidBefore = scenario.endsWith("repeat") ? (long) size * accounts.size() : 0;
                if (ledger - paidBefore != expected) {
                    out.println("ANOMALY " + scenario + ": the ledger took " + (ledger - paidBefore)
                            + ", the answers said " + expected);
                    failures++;
                }
                Arrays.sort(nanos);
                out.printf(
                        "%-16s n=%4d  p50 %7.2f ms  p90 %7.2f ms  p99 %7.2f ms  max %7.2f ms  (%d records, %d credits"
                                + " charged, ledger checked)%n",
                        scenario,
                        runs,
                        ms(nanos, 0.50),
                        ms(nanos, 0.90),
                        ms(nanos, 0.99),
                        nanos[runs - 1] / 1e6,
                        (long) size * runs,
                        expected);
            }
            if (failures > 0) {
                System.exit(1);
            }
        }
    }

    private static double ms(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    private static IssuedApiKey newAccount(CadastroServer server, ApiKeyIssuer issuer, String scenario, int i) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Account a = server.store().accounts().create("lote " + scenario + " " + run, new Plan("bench", 1_000_000_000L));
        server.store().ledger().topUp(a.id(), CreditKind.CREDITS, CREDITS, IdempotencyKey.of("lote:" + run), "bench");
        return issuer.issue(a.id(), "bench", EnumSet.of(Scope.EMPRESAS_READ));
    }

    private static final Pattern BATCH_CREDITS = Pattern.compile("^\\{\"creditos_consumidos\":(\\d+)");

    /** The answer's total: the batch's first field, or the lookup's last. */
    private static long creditsOf(String body) {
        if (body.startsWith("{\"creditos_consumidos\":")) {
            Matcher m = BATCH_CREDITS.matcher(body);
            m.find();
            return Long.parseLong(m.group(1));
        }
        int at = body.lastIndexOf("\"creditos_consumidos\":");
        return Long.parseLong(body.substring(at + 22, body.length() - 1));
    }

    private static String body(List<String> cnpjs) {
        StringBuilder sb = new StringBuilder(cnpjs.size() * 18 + 16).append("{\"cnpjs\":[");
        for (int i = 0; i < cnpjs.size(); i++) {
            sb.append(i == 0 ? "\"" : ",\"").append(cnpjs.get(i)).append('"');
        }
        return sb.append("]}").toString();
    }

    private static List<String> draw(List<String> pool, int size, Random random) {
        List<String> copy = new ArrayList<>(pool);
        Collections.shuffle(copy, random);
        return List.copyOf(copy.subList(0, size));
    }

    /** Distinct CNPJs of the index, from pages of every state. */
    private static List<String> cnpjs(CadastroServer server, int wanted) {
        List<String> out = new ArrayList<>();
        for (String uf : List.of("SP", "MG", "RJ", "BA", "PR", "RS", "PE", "CE", "PA", "SC", "GO", "MA")) {
            for (int page = 1; page <= 20 && out.size() < wanted; page++) {
                for (Empresa e : server.register()
                        .search(SearchParameters.parse(Map.of(
                                "ufs", List.of(uf), "limite", List.of("200"), "pagina", List.of(String.valueOf(page)))))
                        .dados()) {
                    out.add(e.cnpj());
                }
            }
        }
        return out;
    }
}
