package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.register.Change;
import dev.cadastro.core.register.ChangePage;
import dev.cadastro.core.register.ChangeQuery;
import dev.cadastro.core.register.ChangeType;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Establishment.Company;
import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two generations built under one root: the second's changes against the first, read through {@link
 * LuceneRegister#changes}, equal an independent diff of the two lists of establishments, per type, per
 * CNPJ and per previous value; filters apply to the new record; another month is refused.
 */
class ChangeFeedTest {
    private static Path root;
    private static final Map<String, Establishment> BEFORE = new HashMap<>();
    private static final Map<String, Establishment> AFTER = new HashMap<>();
    private static LuceneRegister register;

    @BeforeAll
    static void build() throws Exception {
        root = Files.createTempDirectory("change-feed");
        SyntheticRegister g = new SyntheticRegister(41);
        List<Establishment> first = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            Establishment e = g.next();
            first.add(e);
            BEFORE.put(e.cnpj().value(), e);
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
            AFTER.put(e.cnpj().value(), e);
        }
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, SyntheticRegister.lookups(), options)) {
            second.forEach(b::add);
            b.publish("month 2", true, Optional.of(YearMonth.of(2026, 9)));
            long gone =
                    BEFORE.keySet().stream().filter(c -> !AFTER.containsKey(c)).count();
            assertTrue(gone > 100);
            assertEquals(gone, b.changes().orElseThrow().removed(), "CNPJs of month 1 not in month 2");
        }
        register = LuceneRegister.open(root);
    }

    @AfterAll
    static void close() {
        if (register != null) {
            register.close();
        }
        RegisterFixture.deleteTree(root);
    }

    private static RegisterQuery all(boolean countOnly) {
        return RegisterQuery.builder().countOnly(countOnly).limite(200).buildWithoutFilterRule();
    }

    /** A copy of {@code e} with the given fields replaced (null: kept). */
    private static Establishment with(
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

    private static Map<String, Set<ChangeType>> expectedChanges() {
        Map<String, Set<ChangeType>> out = new HashMap<>();
        AFTER.forEach((cnpj, n) -> {
            Set<ChangeType> t = expected(BEFORE.get(cnpj), n);
            if (!t.isEmpty()) {
                out.put(cnpj, t);
            }
        });
        return out;
    }

    private static List<Change> every(RegisterQuery filters, Set<ChangeType> types) {
        List<Change> out = new ArrayList<>();
        for (int page = 1; ; page++) {
            ChangePage p = register.changes(new ChangeQuery(
                    filters.toBuilder().limite(200).pagina(page).buildWithoutFilterRule(), types, Optional.empty()));
            out.addAll(p.itens());
            if (p.itens().size() < 200) {
                assertEquals(out.size(), p.total(), "the pages add up to the total");
                return out;
            }
        }
    }

    @Test
    void everyTypeIsFoundAndEqualsTheIndependentDiff() {
        Map<String, Set<ChangeType>> expected = expectedChanges();
        Map<ChangeType, Long> perType = new EnumMap<>(ChangeType.class);
        expected.values().forEach(ts -> ts.forEach(t -> perType.merge(t, 1L, Long::sum)));
        for (ChangeType t : ChangeType.values()) {
            assertTrue(perType.getOrDefault(t, 0L) > 0, "the test data has " + t);
            ChangePage count = register.changes(new ChangeQuery(all(true), Set.of(t), Optional.empty()));
            assertEquals(perType.get(t), count.total(), "count of " + t);
            assertTrue(count.itens().isEmpty(), "count-only reads no record");
        }
        List<Change> items = every(all(false), Set.of());
        Map<String, Set<ChangeType>> served = new HashMap<>();
        for (Change c : items) {
            assertFalse(served.containsKey(c.empresa().cnpj()), "each CNPJ once");
            served.put(c.empresa().cnpj(), c.tipos());
            Establishment p = BEFORE.get(c.empresa().cnpj());
            Establishment n = AFTER.get(c.empresa().cnpj());
            assertEquals(n.situacaoCadastral(), c.empresa().situacaoCadastral(), "the item is the new record");
            if (c.tipos().contains(ChangeType.SITUACAO)) {
                assertEquals(p.situacaoCadastral(), c.anteriores().get("situacao_cadastral"));
            }
            if (c.tipos().contains(ChangeType.ENDERECO)) {
                assertEquals(Objects.toString(p.cep(), ""), c.anteriores().get("cep"));
                assertEquals(p.uf(), c.anteriores().get("uf"));
            }
            if (c.tipos().contains(ChangeType.CONTATO)) {
                assertEquals(Objects.toString(p.email(), ""), c.anteriores().get("email"));
            }
            if (c.tipos().contains(ChangeType.CNAE)) {
                assertEquals(p.cnaePrincipal(), c.anteriores().get("cnae"));
            }
            if (c.tipos().contains(ChangeType.PORTE)) {
                assertEquals(p.company().porte(), c.anteriores().get("porte"));
            }
            if (c.tipos().contains(ChangeType.CAPITAL)) {
                Long old = p.company().capitalSocialCentavos();
                assertEquals(
                        old == null ? "" : BigDecimal.valueOf(old, 2).toPlainString(),
                        c.anteriores().get("capital_social"));
            }
            if (c.tipos().equals(Set.of(ChangeType.ABERTURA))) {
                assertTrue(c.anteriores().isEmpty(), "an opening has no previous values");
            }
        }
        assertEquals(expected, served);
    }

    @Test
    void filtersApplyToTheNewRecord() {
        RegisterQuery sp =
                RegisterQuery.builder().ufs("SP").situacaoCadastral("08").build();
        List<Change> items = every(sp, Set.of(ChangeType.SITUACAO, ChangeType.ENDERECO));
        long expected = expectedChanges().entrySet().stream()
                .filter(e -> e.getValue().contains(ChangeType.SITUACAO)
                        || e.getValue().contains(ChangeType.ENDERECO))
                .map(e -> AFTER.get(e.getKey()))
                .filter(n -> n.uf().equals("SP") && n.situacaoCadastral().equals("08"))
                .count();
        assertTrue(expected > 0);
        assertEquals(expected, items.size());
        for (Change c : items) {
            assertEquals("SP", c.empresa().uf());
            assertEquals("08", c.empresa().situacaoCadastral());
        }
        ChangePage count = register.changes(new ChangeQuery(
                sp.toBuilder().countOnly(true).build(),
                Set.of(ChangeType.SITUACAO, ChangeType.ENDERECO),
                Optional.empty()));
        assertEquals(expected, count.total());
        assertEquals(Optional.of(YearMonth.of(2026, 9)), count.referencia());
        assertEquals(Optional.of(YearMonth.of(2026, 8)), count.anterior());
    }

    @Test
    void anotherMonthIsRefusedNamingReferencia() {
        assertEquals(
                register.changes(new ChangeQuery(all(true), Set.of(), Optional.empty()))
                        .total(),
                register.changes(new ChangeQuery(all(true), Set.of(), Optional.of(YearMonth.of(2026, 9))))
                        .total());
        InvalidParameterException e = assertThrows(
                InvalidParameterException.class,
                () -> register.changes(new ChangeQuery(all(true), Set.of(), Optional.of(YearMonth.of(2026, 7)))));
        assertEquals("referencia", e.violation().field());
        assertEquals("no-changes", e.violation().rule());
    }
}
