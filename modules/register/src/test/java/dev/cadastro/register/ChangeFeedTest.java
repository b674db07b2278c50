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
import dev.cadastro.core.register.RegisterQuery;
import java.math.BigDecimal;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two generations built under one root: the second's changes against the first, read through {@link
 * LuceneRegister#changes}, equal an independent diff of the two lists of establishments, per type, per
 * CNPJ and per previous value; filters apply to the new record; another month is refused.
 */
class ChangeFeedTest {
    private static TwoMonths months;
    private static Map<String, Establishment> BEFORE;
    private static Map<String, Establishment> AFTER;
    private static LuceneRegister register;

    @BeforeAll
    static void build() throws Exception {
        months = TwoMonths.build();
        BEFORE = months.before;
        AFTER = months.after;
        long gone = BEFORE.keySet().stream().filter(c -> !AFTER.containsKey(c)).count();
        assertTrue(gone > 100);
        assertEquals(gone, months.removedReported, "CNPJs of month 1 not in month 2");
        register = LuceneRegister.open(months.root);
    }

    @AfterAll
    static void close() {
        if (register != null) {
            register.close();
        }
        if (months != null) {
            months.close();
        }
    }

    private static RegisterQuery all(boolean countOnly) {
        return TwoMonths.all(countOnly);
    }

    private static Map<String, Set<ChangeType>> expectedChanges() {
        return months.expectedChanges();
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
