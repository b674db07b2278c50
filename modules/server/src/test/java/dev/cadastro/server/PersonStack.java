package dev.cadastro.server;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.person.SubjectDigests;
import dev.cadastro.providers.FaultPlan;
import dev.cadastro.providers.ProviderPolicy;
import dev.cadastro.providers.SimulatedPersonBureau;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A company-data listener over the fixture's register and PostgreSQL with a clock, a person-bureau fault
 * plan and an audit key of its own, so person tests can move time and break the bureau without touching
 * the shared server. Its guard times out after 2 s and never opens its circuit in a test's few calls.
 */
final class PersonStack implements AutoCloseable {
    /** No SMS provider; its keyring is where the audit key comes from, as in a server. */
    static final SmsOptions.Sms SMS = SmsOptions.Sms.none();

    static final SubjectDigests AUDIT_KEY = CompanyDataRoutes.personAuditKey(SMS.keys());

    final ServerFixture f;
    final ManualClock clock = new ManualClock(ServerFixture.START);
    final FaultPlan personFaults = FaultPlan.none();
    final TestRuntime.Listener http;
    private final ApiKeyIssuer issuer;

    PersonStack(ServerFixture f) {
        this.f = f;
        ProviderOptions.Providers providers = ProviderOptions.simulated()
                .withPersonFaults(personFaults)
                .withPolicy(ProviderPolicy.defaults().toBuilder()
                        .timeout(Duration.ofSeconds(2))
                        .slidingWindowSize(10_000)
                        .minimumCalls(10_000)
                        .build())
                .build(f.server.register());
        issuer = new ApiKeyIssuer(f.server.store().accounts(), f.server.store().apiKeys(), clock, new SecureRandom());
        http = f.listen(CompanyDataRoutes.router(
                f.server.register(),
                f.server.store(),
                f.server.store().admission(1_000_000, clock),
                clock,
                f.server.mailing(),
                providers,
                SMS));
    }

    /** An account with these credits and every purpose contracted with {@code fields}. */
    Account account(long credits, Set<String> fields) {
        Account a = f.account(credits, 1_000_000);
        for (Purpose p : Purpose.values()) {
            f.server.store().accounts().contractPurpose(a.id(), p, fields);
        }
        return f.server.store().accounts().find(a.id()).orElseThrow();
    }

    /** A key with these scopes (pessoas:read when none), released for person lookup when asked. */
    String key(Account account, boolean released, Scope... scopes) {
        Set<Scope> set = scopes.length == 0 ? EnumSet.of(Scope.PESSOAS_READ) : EnumSet.of(scopes[0], scopes);
        IssuedApiKey issued = issuer.issue(account.id(), "person", set);
        if (released) {
            f.server.store().apiKeys().setPersonLookupReleased(issued.key().prefix(), true);
        }
        return issued.secret();
    }

    /** The n-th CPF (from {@code from}) that passes {@code wanted}. */
    static Cpf cpf(int from, Predicate<Cpf> wanted) {
        for (int i = from; ; i++) {
            Cpf cpf = Cpf.withCheckDigits(String.format("%09d", 100_000_000 + i * 7919L % 800_000_000));
            if (wanted.test(cpf)) {
                return cpf;
            }
        }
    }

    /** A CPF the simulated bureau has data on under every purpose. */
    static Cpf withData(int from) {
        return cpf(from, c -> {
            for (Purpose p : Purpose.values()) {
                if (SimulatedPersonBureau.hasNothingOn(c, p)) {
                    return false;
                }
            }
            return true;
        });
    }

    static String body(String field, String value, String finalidade, String justificativa) {
        StringBuilder b = new StringBuilder("{");
        if (field != null) {
            b.append('"').append(field).append("\": \"").append(value).append("\", ");
        }
        if (justificativa != null) {
            b.append("\"justificativa\": \"").append(justificativa).append("\", ");
        }
        b.append("\"finalidade\": \"").append(finalidade).append("\"}");
        return b.toString();
    }

    HttpResponse<String> post(String path, String body, String... headers) {
        return send("POST", path, body, headers);
    }

    HttpResponse<String> get(String path, String... headers) {
        return send("GET", path, null, headers);
    }

    HttpResponse<String> send(String method, String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        return f.send(b.build());
    }

    static String[] bearer(String key, String... more) {
        String[] h = new String[2 + more.length];
        h[0] = "Authorization";
        h[1] = "Bearer " + key;
        System.arraycopy(more, 0, h, 2, more.length);
        return h;
    }

    /** One number from the store's database. */
    long count(String sql, Object... params) {
        try (Connection c = f.server.store().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    void execute(String sql) {
        try (Connection c = f.server.store().dataSource().getConnection();
                var s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    long auditRows(Account a) {
        return count("SELECT count(*) FROM person_audit WHERE account_id = ?", a.id().value());
    }

    long personCharges(Account a) {
        return count(
                "SELECT count(*) FROM ledger_entries WHERE account_id = ? AND idem_key LIKE 'person%'", a.id().value());
    }

    @Override
    public void close() {
        http.close();
    }
}
