package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.providers.Fault;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * No response of enrichment or of a credit report ever holds a key outside its allowlist, whatever the
 * document: register CNPJs, CNPJs outside the register, CPFs, masked or not, with the providers adding
 * extra personal and unknown fields to half of their answers. Through the real socket.
 */
class BureauResponseProperties {
    private static ServerFixture f;
    private static BureauStack s;
    private static List<String> registered;
    private static String enrichKey;
    private static String creditKey;

    @BeforeContainer
    static void start() {
        f = ServerFixture.get();
        s = BureauStack.steady(f);
        s.bureauFaults.forShare(0.5, new Fault.ExtraFields());
        s.creditFaults.forShare(0.5, new Fault.ExtraFields());
        registered = f
                .server
                .register()
                .search(RegisterQuery.builder()
                        .ufs("SP", "RJ", "MG", "BA", "RS")
                        .limite(200)
                        .build())
                .dados()
                .stream()
                .map(Empresa::cnpj)
                .toList();
        Account account = f.account(1_000_000_000L, 1_000_000_000L);
        f.server.store().accounts().setAccreditation(account.id(), AccreditationStatus.APPROVED);
        enrichKey = f.key(account, Scope.ENRIQUECIMENTO_READ);
        creditKey = f.key(account, Scope.CREDITO_READ);
    }

    @AfterContainer
    static void stop() {
        s.close();
    }

    @Property(tries = 120)
    void anEnrichmentHoldsOnlyAllowlistedKeys(@ForAll("cnpjs") String cnpj) {
        HttpResponse<String> r = s.enrich(cnpj.replace("/", "%2F"), "X-API-Key", enrichKey);
        assertTrue(r.statusCode() == 200 || r.statusCode() == 404, () -> r.statusCode() + " " + r.body());
        if (r.statusCode() == 200) {
            assertEquals(Set.of(), Allowlists.outside(json(r), Allowlists.ENRICHMENT), r.body());
        }
    }

    @Property(tries = 120)
    void aCreditReportHoldsOnlyAllowlistedKeys(@ForAll("documents") String documento) {
        HttpResponse<String> r = s.consult(BureauStack.body(documento), "X-API-Key", creditKey);
        assertTrue(r.statusCode() == 200 || r.statusCode() == 404, () -> r.statusCode() + " " + r.body());
        if (r.statusCode() == 200) {
            assertEquals(Set.of(), Allowlists.outside(json(r), Allowlists.CREDIT), r.body());
        }
    }

    @Provide
    Arbitrary<String> cnpjs() {
        Arbitrary<Cnpj> anywhere = Arbitraries.strings()
                .numeric()
                .ofLength(12)
                .filter(body -> body.chars().distinct().count() > 1)
                .map(Cnpj::withCheckDigits)
                .filter(c -> Cnpj.isValid(c.value()));
        Arbitrary<Cnpj> inRegister = Arbitraries.of(registered).map(Cnpj::of);
        return Arbitraries.oneOf(inRegister, anywhere).flatMap(c -> Arbitraries.of(c.value(), c.formatted()));
    }

    @Provide
    Arbitrary<String> documents() {
        Arbitrary<String> cpfs = Arbitraries.strings()
                .numeric()
                .ofLength(9)
                .filter(body -> body.chars().distinct().count() > 1)
                .map(Cpf::withCheckDigits)
                .filter(c -> Cpf.isValid(c.canonical()))
                .flatMap(c -> Arbitraries.of(c.canonical(), c.formatted()));
        return Arbitraries.oneOf(cpfs, cnpjs());
    }
}
