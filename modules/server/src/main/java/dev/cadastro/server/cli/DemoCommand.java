package dev.cadastro.server.cli;

import dev.cadastro.core.account.Scope;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.server.CadastroServer;
import dev.cadastro.server.DemoSetup;
import dev.cadastro.server.EngineConfig;
import dev.cadastro.store.Database;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./cadastro demo}: generates a synthetic register and loads it (first run only), starts the
 * embedded PostgreSQL, creates a demo account with credits, an approved LGPD accreditation and one
 * key per scope (first run only),
 * serves the API and prints curl lines to paste.
 */
@Command(
        name = "demo",
        description = {
            "Generate, load and serve on embedded defaults in one step, and print ready curl lines.",
            "Everything lives in --home: dump/, index/, db/ and demo-keys.txt (mode 0600); a second run"
                    + " reuses them. Ctrl-C stops; the data stays. While it runs, ./cadastro admin --home"
                    + " DIR works on its database."
        })
public final class DemoCommand extends CliCommand {

    @Option(
            names = "--home",
            paramLabel = "DIR",
            defaultValue = ".cadastro",
            description = "Folder of the demo's data (default ${DEFAULT-VALUE}).")
    String home;

    @Mixin
    ListenFlags listen = new ListenFlags("127.0.0.1");

    @Option(
            names = "--establishments",
            paramLabel = "N",
            defaultValue = "200_000",
            description = "Establishments of the synthetic dump generated on the first run (default ${DEFAULT-VALUE}).")
    long establishments;

    @Option(
            names = "--files",
            paramLabel = "DIR|s3://BUCKET[/PREFIX]",
            description = "Where mailing export files and call recordings are kept: a folder or a bucket of an"
                    + " S3-compatible object store (default: files/ in --home).")
    String files;

    @Mixin
    ObjectStoreFlags objectStore;

    @Mixin
    ProviderFlags providers;

    @Mixin
    CallsFlags calls;

    /** The demo's call-records API port when --calls-port is not given. */
    static final int DEFAULT_CALLS_PORT = 8081;

    /** The demo ingests more often than the contract's two minutes, so new calls show up quickly. */
    static final java.time.Duration DEMO_REFRESH = java.time.Duration.ofSeconds(30);

    /** The demo's first ingest reads the exchange's last hours, so the list is not empty at once. */
    static final java.time.Duration DEMO_LOOK_BACK = DemoSetup.SIMULATED_LOOK_BACK;

    @Mixin
    PushFlags push;

    @Mixin
    ObserveFlags observe;

    @Mixin
    EdgeFlags edge;

    @Override
    public Integer call() throws Exception {
        PrintStream out = out();
        DemoSetup demo = new DemoSetup(path("--home", home));
        long count = within("--establishments", establishments, 1, 100_000_000);
        int listenPort = (int) within("--port", listen.port, 0, 65535);
        dev.cadastro.server.ProviderOptions providerOptions = providers.options(this::usage);
        dev.cadastro.server.CallRecordsOptions callOptions =
                calls.options(listen.bind, DEFAULT_CALLS_PORT, this::usage);
        java.time.Duration refresh = calls.refresh(DEMO_REFRESH, this::usage);
        // The demo always has metrics, on a free loopback port unless --metrics-port says.
        dev.cadastro.server.Observability observability = observe.options(0, this::usage);
        // Checked before the first run's minute of generating: a bucket that does not answer stops here.
        java.util.Optional<dev.cadastro.s3.S3FileStore> objectBucket =
                objectStore.fileStore("--files", files, this::usage);
        long t0 = System.nanoTime();
        out.println("cadastro demo: home " + demo.home());
        demo.ensureIndex(count, out);
        out.println("database: starting the embedded PostgreSQL in " + demo.database() + " ...");
        out.println("call records: a simulated exchange ingested every " + refresh.toSeconds()
                + " s (the first pass reads the last " + DEMO_LOOK_BACK.toHours() + " hours) ...");
        InetSocketAddress address = new InetSocketAddress(listen.bind, listenPort);
        // Push (issue 19): a receiver on loopback, started first; its exact host and port are exempt
        // from the https and address checks, which stay on for every other destination.
        String pushSecret = dev.cadastro.core.calls.push.PushDestination.newSecret(new SecureRandom());
        String pushToken = "Bearer demo-receiver-" + Long.toHexString(new SecureRandom().nextLong());
        dev.cadastro.server.DemoReceiver receiver =
                dev.cadastro.server.DemoReceiver.start(pushSecret, pushToken, out, Clock.systemUTC());
        EngineConfig.Builder config = EngineConfig.builder(demo.index(), Database.embedded(demo.database()))
                .address(address)
                .runtime(edge.options(java.time.Duration.ZERO, this::usage))
                .clock(Clock.systemUTC())
                .providers(providerOptions)
                .sms(providers.sms(demo.home(), this::usage))
                .push(push.options(this::usage).withExemption(receiver.url()));
        java.util.Optional<dev.cadastro.s3.S3FileStore> bucket = objectBucket;
        if (bucket.isPresent()) {
            config.fileStore(bucket.get());
            out.println("files: exports and recordings in " + bucket.get().location());
        } else if (files != null) {
            config.files(path("--files", files));
        }
        CadastroServer server;
        try {
            server = CadastroServer.start(config.build(), callOptions, observability);
        } catch (RuntimeException e) {
            bucket.ifPresent(dev.cadastro.s3.S3FileStore::close);
            receiver.close();
            throw e;
        }
        try {
            Map<Scope, String> keys = demo.ensureAccount(server.store(), Clock.systemUTC(), new SecureRandom(), out);
            printCurlLines(out, server, keys, demo.home());
            String callsToken = demo.ensureCallsToken(server.store());
            dev.cadastro.core.calls.CallIngestLoop ingest = server.startCallIngest(
                    List.of(DemoSetup.simulatedExchange(
                            server.store(),
                            DemoSetup.CALLS_INTEGRATION,
                            server.calls().orElseThrow().recordings())),
                    refresh,
                    dev.cadastro.core.calls.CallIngest.Options.defaults(
                                    "demo-" + ProcessHandle.current().pid())
                            .withFirstLookBack(DEMO_LOOK_BACK));
            // The first ingest reads the last hours: wait for it, so the curl lines name a real call.
            ingest.tickNow();
            // Push once the integration exists and its history is in: new calls from here on are pushed.
            demo.ensurePushDestination(server.store(), receiver.url(), pushToken, pushSecret, Clock.systemUTC(), out);
            printCallLines(out, server, callsToken, demo.callsTokenFile());
            ListenerUrls.print(out, server);
            out.printf(
                    "cadastro demo: ready in %.1f s; Ctrl-C stops (data stays in %s)%n",
                    (System.nanoTime() - t0) / 1e9, demo.home());
            out.flush();
        } catch (RuntimeException e) {
            server.close();
            bucket.ifPresent(dev.cadastro.s3.S3FileStore::close);
            receiver.close();
            throw e;
        }
        ServeCommand.awaitShutdown(() -> {
            server.close();
            bucket.ifPresent(dev.cadastro.s3.S3FileStore::close);
            receiver.close();
        });
        return Cli.DONE;
    }

    /** The company-data curl lines the demo prints (public for the test that sends each of them). */
    public static void printCurlLines(
            PrintStream out, CadastroServer server, Map<Scope, String> keys, java.nio.file.Path home) {
        String base = "http://" + ServeCommand.hostFor(server.address()) + ":" + server.port();
        String key = keys.get(Scope.EMPRESAS_READ);
        String other = keys.get(Scope.MAILING_READ);
        String cnpj = sampleCnpj(server);
        out.println();
        out.println("Keys (also in the demo-keys.txt file, mode 0600):");
        keys.forEach((scope, secret) -> out.printf("  %-20s %s%n", scope.wire(), secret));
        out.println();
        out.println("Try:");
        out.println("  # count active companies in SP (free)");
        out.println("  curl -s -H 'Authorization: Bearer " + key + "' '" + base
                + "/v1/empresas?ufs=SP&situacao_cadastral=02&apenas_total=true'");
        out.println("  # a page of 5 records in SP or RJ (5 credits)");
        out.println(
                "  curl -s -H 'Authorization: Bearer " + key + "' '" + base + "/v1/empresas?ufs=SP&ufs=RJ&limite=5'");
        out.println(
                "  # name search, beyond the contract: active bakeries in SP whose name has a word starting with SAO"
                        + " (5 credits)");
        out.println("  curl -s -H 'Authorization: Bearer " + key + "' '" + base
                + "/v1/empresas?busca_textual=padaria%20sao&ufs=SP&situacao_cadastral=02&limite=5'");
        out.println(
                "  # this month's changes, beyond the contract: companies opened in SP since last month (count, free)");
        out.println("  curl -s -H 'Authorization: Bearer " + key + "' '" + base
                + "/v1/empresas/alteracoes?tipos=abertura&ufs=SP&apenas_total=true'");
        out.println("  # the status changes with the old status beside the new (3 credits)");
        out.println("  curl -s -H 'Authorization: Bearer " + key + "' '" + base
                + "/v1/empresas/alteracoes?tipos=situacao&limite=3'");
        if (cnpj != null) {
            out.println("  # one company by CNPJ (1 credit; again today: 0)");
            out.println("  curl -s -H 'X-API-Key: " + key + "' '" + base + "/v1/empresas/" + cnpj + "'");
            out.println("  # the same with a key lacking empresas:read: 403 SEM_ESCOPO");
            out.println("  curl -s -H 'X-API-Key: " + other + "' '" + base + "/v1/empresas/" + cnpj + "'");
            out.println("  # up to 1,000 CNPJs in one call, one item per position (1 credit per record, 0 for one"
                    + " looked up today): the masked copy is a duplicate, the last CNPJ invalid");
            out.println("  curl -s -H 'Authorization: Bearer " + key + "' -H 'Content-Type: application/json' -d '"
                    + "{\"cnpjs\": [\"" + cnpj + "\", \""
                    + dev.cadastro.core.document.Cnpj.of(cnpj).formatted()
                    + "\", \"12345678000100\"]}' '" + base + "/v1/empresas/lote'");
        }
        out.println("  # rate-limit headers, the balance and the register's month (X-Dados-Referencia)");
        out.println("  curl -si -H 'Authorization: Bearer " + key + "' '" + base
                + "/v1/empresas?ufs=MG&limite=1' | grep -i '^x-'");
        out.println("  # the account: credit balance, credits held by running exports, SMS balance, daily limit and"
                + " today's use, this key's scopes (any key; free)");
        out.println("  curl -s -H 'Authorization: Bearer " + key + "' '" + base + "/v1/conta'");
        String export = keys.get(Scope.MAILING_EXPORT);
        out.println("  # estimate an export first (mailing:read; free): the filter's total and the credits the"
                + " export would hold");
        out.println("  curl -s -H 'Authorization: Bearer " + other + "' -H 'Content-Type: application/json' -d '"
                + "{\"filtros\": {\"ufs\": [\"RJ\"], \"situacao_cadastral\": [\"02\"]}, \"quantidade\": 100}' '"
                + base + "/v1/mailing/estimativa'");
        out.println("  # a mailing export: 100 active companies in RJ as CSV in a ZIP (holds 100 credits,"
                + " charges the leads delivered)");
        out.println("  curl -s -H 'Authorization: Bearer " + export + "' -H 'Content-Type: application/json' -d '"
                + "{\"filtros\": {\"ufs\": [\"RJ\"], \"situacao_cadastral\": [\"02\"]}, \"quantidade\": 100,"
                + " \"formato\": \"csv\"}' '" + base + "/v1/mailing'");
        out.println("  # follow it and download the ZIP (both free), with the job_id the line above answered");
        out.println("  curl -s -H 'Authorization: Bearer " + other + "' '" + base + "/v1/mailing/JOB_ID'");
        out.println("  curl -s -OJ -H 'Authorization: Bearer " + other + "' '" + base + "/v1/mailing/JOB_ID/arquivo'");
        if (cnpj != null) {
            out.println("  # bureau enrichment of a CNPJ: size, secondary activities, partners with complete CPFs,"
                    + " risk signals (5 credits; again today: 0)");
            out.println("  curl -s -H 'Authorization: Bearer " + keys.get(Scope.ENRIQUECIMENTO_READ) + "' '" + base
                    + "/v1/enriquecimento/" + cnpj + "'");
            out.println("  # a credit report; the document goes in the body, never in the URL (10 credits a month;"
                    + " within 7 days fonte is cache)");
            out.println("  curl -s -H 'Authorization: Bearer " + keys.get(Scope.CREDITO_READ)
                    + "' -H 'Content-Type: application/json' -d '{\"documento\": \"" + cnpj + "\"}' '" + base
                    + "/v1/credito/consultar'");
        }
        String persons = keys.get(Scope.PESSOAS_READ);
        if (persons != null) {
            String cpf = demoCpf();
            String json = "' -H 'Content-Type: application/json' -d '";
            out.println(
                    "  # person lookup by CPF for a declared purpose: only the fields contracted for it (15 credits,"
                            + " every call; audited)");
            out.println("  curl -s -H 'Authorization: Bearer " + persons + json + "{\"cpf\": \"" + cpf
                    + "\", \"finalidade\": \"KYC_CADASTRO\", \"justificativa\": \"Abertura de conta do cliente\"}' '"
                    + base + "/v1/pessoas/consultar'");
            out.println("  # reverse lookup by phone; the same CPF for credit analysis releases other fields");
            out.println("  curl -s -H 'Authorization: Bearer " + persons + json
                    + "{\"telefone\": \"(11) 91234-5678\", \"finalidade\": \"COBRANCA_DIVIDA_PROPRIA\"}' '" + base
                    + "/v1/pessoas/consultar'");
            out.println("  # async: create a job (free), then read it once (15 credits on the first read)");
            out.println("  curl -s -H 'Authorization: Bearer " + persons + json + "{\"cpf\": \"" + cpf
                    + "\", \"finalidade\": \"ANALISE_CREDITO\"}' '" + base + "/v1/pessoas/consultar-async'");
            out.println("  curl -s -H 'Authorization: Bearer " + persons + "' '" + base + "/v1/pessoas/jobs/JOB_ID'");
            out.println("  # a batch: one item per CPF, in order (invalid and duplicate CPFs are not charged twice)");
            out.println("  curl -s -H 'Authorization: Bearer " + persons + json + "{\"cpfs\": [\"" + cpf
                    + "\", \"111.111.111-11\", \"" + cpf + "\"], \"finalidade\": \"PREVENCAO_FRAUDE\"}' '" + base
                    + "/v1/pessoas/lote'");
        }
        String sms = keys.get(Scope.SMS_OTP);
        out.println("  # an SMS one-time code to a mobile (1 SMS credit; the answer has the envio_id, never the"
                + " code; 1 every 30 s and 5 an hour per phone)");
        out.println("  curl -s -H 'Authorization: Bearer " + sms + "' -H 'Content-Type: application/json' -d '"
                + "{\"telefone\": \"11987654321\", \"validade_segundos\": 300}' '" + base + "/v1/sms/otp'");
        out.println("  # read the code as the phone would (operators only; never through the API)");
        out.println("  ./cadastro admin sms-inbox --home " + home + " --phone 11987654321");
        out.println("  # check it (free; 5 attempts, single use), with the envio_id and the code from the lines above");
        out.println("  curl -s -H 'Authorization: Bearer " + sms + "' -H 'Content-Type: application/json' -d '"
                + "{\"envio_id\": \"ENVIO_ID\", \"codigo\": \"CODE\"}' '" + base + "/v1/sms/otp/verificar'");
        out.println("  # a number ending in 0000 fails delivery: the provider reports it later and the credit returns");
        out.println("  # the OpenAPI document");
        out.println("  curl -s '" + base + "/v1/openapi.json'");
        out.println();
    }

    /** The call-records service's curl lines: the token once, then lines that use it from the shell. */
    private static void printCallLines(
            PrintStream out, CadastroServer server, String token, java.nio.file.Path tokenFile) {
        dev.cadastro.server.CallRecordsService calls = server.calls().orElseThrow();
        String base = "http://" + ServeCommand.hostFor(calls.address()) + ":" + calls.port();
        String auth = "-H \"Authorization: Bearer $CALLS_TOKEN\"";
        String id = calls
                .records()
                .list(
                        server.store().callTokens().authenticate(token).orElseThrow(),
                        dev.cadastro.core.calls.CallFilter.NONE,
                        1,
                        java.util.Optional.empty())
                .calls()
                .stream()
                .map(dev.cadastro.core.calls.CallRecord::id)
                .findFirst()
                .orElse("CALL_ID");
        out.println("Call records (integration " + DemoSetup.CALLS_INTEGRATION + "; the token is also in " + tokenFile
                + ", mode 0600):");
        out.println("  export CALLS_TOKEN=" + token);
        out.println("  # the last 7 days of calls, newest first, 3 a page");
        out.println("  curl -s " + auth + " '" + base + "/v1/ligacoes?limite=3'");
        out.println(
                "  # the next page: paste paginacao.proximo_cursor (it only works with the same filters and a token of the same integration)");
        out.println("  curl -s " + auth + " '" + base + "/v1/ligacoes?limite=3&cursor=CURSOR'");
        out.println("  # or walk every page with jq");
        out.println("  c=; while :; do r=$(curl -s " + auth + " \"" + base
                + "/v1/ligacoes?limite=50${c:+&cursor=$c}\"); echo \"$r\" | jq -r '.ligacoes[].metadata.id';"
                + " c=$(echo \"$r\" | jq -r '.paginacao.proximo_cursor // empty'); [ -z \"$c\" ] && break; done");
        out.println("  # filters: an agent's calls since a moment (Brasilia time when no offset is given)");
        out.println("  curl -s " + auth + " '" + base + "/v1/ligacoes?agente="
                + dev.cadastro.providers.calls.SimulatedExchange.logins().get(0) + "&desde="
                + java.time.LocalDate.now(java.time.ZoneOffset.ofHours(-3)) + "T00:00:00'");
        out.println("  # one call");
        out.println("  curl -s " + auth + " '" + base + "/v1/ligacoes/" + id + "'");
        out.println("  # its audio: a 302 to a signed link valid 1 hour on the recording host "
                + calls.recordingsBaseUrl() + ";");
        out.println("  # -v shows that curl does not send Authorization to that other host");
        out.println("  curl -L -v -o call.wav " + auth + " '" + base + "/v1/ligacoes/" + id + "/audio' 2>&1 | grep -iE"
                + " '^> (GET|Host|Authorization)|^< (HTTP|Location|Content-Type)'");
        out.println("  # its OpenAPI document");
        out.println("  curl -s '" + base + "/v1/openapi.json'");
        out.println();
    }

    private static String sampleCnpj(CadastroServer server) {
        List<Empresa> page = server.register()
                .search(RegisterQuery.builder()
                        .situacaoCadastral("02")
                        .limite(1)
                        .build())
                .dados();
        return page.isEmpty() ? null : page.get(0).cnpj();
    }

    /**
     * The CPF the demo's person lines use: the first from 529.982.247 on that the simulated bureau has
     * data on under each purpose those lines name, so that every line shows a dossier, not SEM_DADOS.
     */
    static String demoCpf() {
        for (long base = 529_982_247L; ; base++) {
            dev.cadastro.core.document.Cpf cpf = dev.cadastro.core.document.Cpf.withCheckDigits(Long.toString(base));
            boolean data = true;
            for (dev.cadastro.core.account.Purpose purpose : List.of(
                    dev.cadastro.core.account.Purpose.KYC_CADASTRO,
                    dev.cadastro.core.account.Purpose.ANALISE_CREDITO,
                    dev.cadastro.core.account.Purpose.PREVENCAO_FRAUDE)) {
                data &= !dev.cadastro.providers.SimulatedPersonBureau.hasNothingOn(cpf, purpose);
            }
            if (data) {
                return cpf.digits();
            }
        }
    }
}
