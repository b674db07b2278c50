package dev.cadastro.core.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.document.Cnpj;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * The dedup keys against a reference calendar: two instants share a lookup or enrichment key exactly
 * when they fall on the same day in America/Sao_Paulo, and a credit-report key exactly when they fall
 * in the same month there.
 */
class CostRulesProperties {
    private static final AccountId ACCOUNT = new AccountId(7);
    private static final Cnpj CNPJ = Cnpj.of("33.683.111/0002-80");
    private static final ZoneId SAO_PAULO = ZoneId.of("America/Sao_Paulo");
    // 2015-01-01 to 2035-01-01: covers the years Brazil still had daylight saving time (until 2019).
    private static final long FROM = 1_420_070_400L;
    private static final long TO = 2_051_222_400L;

    private static CostRules at(long epochSecond) {
        return new CostRules(Clock.fixed(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC));
    }

    @Property(tries = 2000)
    void lookupAndEnrichmentKeysAreEqualExactlyOnTheSameSaoPauloDay(
            @ForAll @LongRange(min = FROM, max = TO) long a, @ForAll @LongRange(min = 0, max = 3 * 86_400) long delta) {
        long b = a + delta;
        boolean sameDay = LocalDate.ofInstant(Instant.ofEpochSecond(a), SAO_PAULO)
                .equals(LocalDate.ofInstant(Instant.ofEpochSecond(b), SAO_PAULO));
        assertEquals(
                sameDay,
                at(a).companyLookup(ACCOUNT, CNPJ)
                        .key()
                        .equals(at(b).companyLookup(ACCOUNT, CNPJ).key()));
        assertEquals(
                sameDay,
                at(a).enrichment(ACCOUNT, CNPJ)
                        .key()
                        .equals(at(b).enrichment(ACCOUNT, CNPJ).key()));
    }

    @Property(tries = 2000)
    void creditReportKeysAreEqualExactlyInTheSameSaoPauloMonth(
            @ForAll @LongRange(min = FROM, max = TO) long a,
            @ForAll @LongRange(min = 0, max = 62L * 86_400) long delta) {
        long b = a + delta;
        boolean sameMonth = YearMonth.from(LocalDate.ofInstant(Instant.ofEpochSecond(a), SAO_PAULO))
                .equals(YearMonth.from(LocalDate.ofInstant(Instant.ofEpochSecond(b), SAO_PAULO)));
        assertEquals(
                sameMonth,
                at(a).creditReport(ACCOUNT, CNPJ)
                        .key()
                        .equals(at(b).creditReport(ACCOUNT, CNPJ).key()));
    }
}
