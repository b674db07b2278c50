package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Establishment.Company;
import dev.cadastro.core.register.RegisterQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Two months of synthetic establishments published as two generations under one root (2026-08, then
 * 2026-09): the second drops about 1% of the CNPJs, changes each type at a few percent, renames some
 * (no change type) and adds 400 openings. Holds both months' establishments by CNPJ and the
 * independent diff the register's changes are compared with.
 */
final class TwoMonths implements AutoCloseable {
    final Path root;
    final Map<String, Establishment> before = new HashMap<>();
    final Map<String, Establishment> after = new HashMap<>();
    /** The CNPJs of month 1 that month 2 lacks, as the second publication reported them. */
    long removedReported;

    private TwoMonths(Path root) {
        this.root = root;
    }

    static TwoMonths build() throws Exception {
        Path root = Files.createTempDirectory("change-feed");
        TwoMonths m = new TwoMonths(root);
        SyntheticRegister g = new SyntheticRegister(41);
        List<Establishment> first = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            Establishment e = g.next();
            first.add(e);
            m.before.put(e.cnpj().value(), e);
        }
        BuildOptions options =
                BuildOptions.builder().indexingThreads(2).ramBufferMb(16).build();
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), options)) {
            first.forEach(b::add);
            b.publish("month 1", true, Optional.of(YearMonth.of(2026, 8)));
        }
        try (LuceneRegister r = LuceneRegister.open(root)) {
            InvalidParameterException none = assertThrows(
                    InvalidParameterException.class,
                    () -> r.changes(new ChangeQuery(all(false), Set.of(), Optional.empty())));
            assertEquals("referencia", none.violation().field(), "a first generation has no changes");
        }
        SplittableRandom rng = new SplittableRandom(7);
        List<Establishment> second = new ArrayList<>();
        for (Establishment e : first) {
            double u = rng.nextDouble();
            if (u < 0.01) {
                continue; // gone from the register: counted, not served
            }
            Establishment n = e;
            if (rng.nextDouble() < 0.04) {
                n = with(n, rng.nextBoolean() ? "08" : "04", null, null, null, null, null, null, null);
            }
            if (rng.nextDouble() < 0.04) {
                n = with(n, null, "CEP", String.format("%08d", rng.nextInt(100_000_000)), null, null, null, null, null);
            }
            if (rng.nextDouble() < 0.03) {
                n = with(n, null, null, null, "novo" + rng.nextInt(1000) + "@example.com", null, null, null, null);
            }
            if (rng.nextDouble() < 0.02) {
                n = with(
                        n,
                        null,
                        null,
                        null,
                        null,
                        "4781400".equals(n.cnaePrincipal()) ? "9602501" : "4781400",
                        null,
                        null,
                        null);
            }
            if (n.company() != null && rng.nextDouble() < 0.02) {
                n = with(
                        n, null, null, null, null, null, "05".equals(n.company().porte()) ? "03" : "05", null, null);
            }
            if (n.company() != null && rng.nextDouble() < 0.02) {
                n = with(n, null, null, null, null, null, null, 123_456_789L, null);
            }
            if (rng.nextDouble() < 0.02) {
                n = with(
                        n,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        "OUTRO NOME " + rng.nextInt(100)); // no change type
            }
            second.add(n);
        }
        SyntheticRegister fresh = new SyntheticRegister(42, 50_000_000L);
        for (int i = 0; i < 400; i++) {
            second.add(fresh.next());
        }
        for (Establishment e : second) {
            m.after.put(e.cnpj().value(), e);
        }
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), options)) {
            second.forEach(b::add);
            b.publish("month 2", true, Optional.of(YearMonth.of(2026, 9)));
            m.removedReported = b.changes().orElseThrow().removed();
        }
        return m;
    }

    @Override
    public void close() {
        RegisterFixture.deleteTree(root);
    }

    static RegisterQuery all(boolean countOnly) {
        return RegisterQuery.builder().countOnly(countOnly).limite(200).buildWithoutFilterRule();
    }

    /** A copy of {@code e} with the given fields replaced (null: kept). */
    static Establishment with(
            Establishment e,
            String situacao,
            String marker,
            String cep,
            String email,
            String cnae,
            String porte,
            Long capital,
            String fantasia) {
        Company c = e.company();
        if (c != null && (porte != null || capital != null)) {
            c = new Company(
                    c.razaoSocial(),
                    c.naturezaJuridica(),
                    c.qualificacaoResponsavel(),
                    capital != null ? capital : c.capitalSocialCentavos(),
                    porte != null ? porte : c.porte(),
                    c.enteFederativo());
        }
        return new Establishment(
                e.cnpj(),
                e.headOffice(),
                fantasia != null ? fantasia : e.nomeFantasia(),
                situacao != null ? situacao : e.situacaoCadastral(),
                e.dataSituacao(),
                e.motivoSituacao(),
                e.cidadeExterior(),
                e.pais(),
                e.dataAbertura(),
                cnae != null ? cnae : e.cnaePrincipal(),
                e.cnaesSecundarios(),
                e.tipoLogradouro(),
                marker != null ? "NOVA RUA " + cep.substring(0, 3) : e.logradouro(),
                e.numero(),
                e.complemento(),
                e.bairro(),
                cep != null ? cep : e.cep(),
                e.uf(),
                e.municipio(),
                e.telefones(),
                e.fax(),
                email != null ? email : e.email(),
                e.situacaoEspecial(),
                e.dataSituacaoEspecial(),
                c,
                e.simples(),
                e.divida());
    }

    /** The independent diff: the change types of one CNPJ from the two establishments. */
    private static Set<ChangeType> expected(Establishment p, Establishment n) {
        Set<ChangeType> t = EnumSet.noneOf(ChangeType.class);
        if (p == null) {
            t.add(ChangeType.ABERTURA);
            return t;
        }
        if (!p.situacaoCadastral().equals(n.situacaoCadastral())) {
            t.add(ChangeType.SITUACAO);
            if (n.situacaoCadastral().equals("08")) {
                t.add(ChangeType.BAIXA);
            }
        }
        if (!Objects.equals(p.cep(), n.cep())
                || !Objects.equals(p.logradouro(), n.logradouro())
                || !Objects.equals(p.uf(), n.uf())
                || !Objects.equals(p.municipio(), n.municipio())
                || !Objects.equals(p.bairro(), n.bairro())) {
            t.add(ChangeType.ENDERECO);
        }
        if (!Objects.equals(p.email(), n.email()) || !Objects.equals(firstPhone(p), firstPhone(n))) {
            t.add(ChangeType.CONTATO);
        }
        if (!Objects.equals(p.cnaePrincipal(), n.cnaePrincipal())) {
            t.add(ChangeType.CNAE);
        }
        Company a = p.company();
        Company b = n.company();
        if (!Objects.equals(a == null ? null : a.porte(), b == null ? null : b.porte())) {
            t.add(ChangeType.PORTE);
        }
        if (!Objects.equals(
                a == null ? null : a.capitalSocialCentavos(), b == null ? null : b.capitalSocialCentavos())) {
            t.add(ChangeType.CAPITAL);
        }
        return t;
    }

    private static String firstPhone(Establishment e) {
        return e.telefones().isEmpty() ? null : e.telefones().get(0).formatted();
    }

    /** The independent diff of the two months: each changed CNPJ of month 2 with its types. */
    Map<String, Set<ChangeType>> expectedChanges() {
        Map<String, Set<ChangeType>> out = new HashMap<>();
        after.forEach((cnpj, n) -> {
            Set<ChangeType> t = expected(before.get(cnpj), n);
            if (!t.isEmpty()) {
                out.put(cnpj, t);
            }
        });
        return out;
    }
}
