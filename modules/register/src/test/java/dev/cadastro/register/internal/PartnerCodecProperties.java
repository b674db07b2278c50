package dev.cadastro.register.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.Partner;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.apache.lucene.util.BytesRef;

/**
 * A run of partners written into the partner index's blob reads back equal, every field present or
 * absent, any text, with the descriptions resolved from the lookup table on read.
 */
class PartnerCodecProperties {
    private static final Map<String, String> QUALIFICATIONS =
            Map.of("49", "Sócio-Administrador", "05", "Administrador");
    private static final Lookups LOOKUPS =
            new Lookups(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), QUALIFICATIONS, Map.of(), Map.of());

    @Property
    void aRunReadsBackEqualWithDescriptionsFromTheTable(
            @ForAll @Size(min = 1, max = 20) List<@From("partners") Partner> run, @ForAll long sequence) {
        long seq = Math.abs(sequence == Long.MIN_VALUE ? 0 : sequence);
        byte[] blob = PartnerIndex.encode(seq, run);
        List<Partner> back = new ArrayList<>();
        try {
            PartnerIndex.decode(new BytesRef(blob), LOOKUPS, back);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        List<Partner> expected = run.stream()
                .map(p -> new Partner(
                        p.kind(),
                        p.name(),
                        p.document(),
                        p.qualificationCode(),
                        p.qualificationCode() == null ? null : QUALIFICATIONS.get(p.qualificationCode()),
                        p.entryDate(),
                        p.countryCode(),
                        p.representativeCpf(),
                        p.representativeName(),
                        p.representativeQualificationCode(),
                        p.representativeQualificationCode() == null
                                ? null
                                : QUALIFICATIONS.get(p.representativeQualificationCode()),
                        p.ageBand()))
                .toList();
        assertEquals(expected, back);
    }

    @Provide
    Arbitrary<Partner> partners() {
        Arbitrary<String> text = Arbitraries.strings().ofMaxLength(40).injectNull(0.3);
        Arbitrary<String> code = Arbitraries.of("49", "05", "77").injectNull(0.3);
        Arbitrary<LocalDate> date = Arbitraries.integers()
                .between(-40_000, 60_000)
                .map(d -> LocalDate.ofEpochDay(d))
                .injectNull(0.3);
        Arbitrary<Integer> band = Arbitraries.integers().between(0, 9).injectNull(0.3);
        return Combinators.combine(
                        Arbitraries.of(Partner.Kind.class),
                        Arbitraries.strings().ofMaxLength(60),
                        text,
                        code,
                        date,
                        text,
                        Combinators.combine(text, text, code, band)
                                .as((a, b, c, d) -> java.util.Arrays.asList(a, b, c, d)))
                .as((kind, name, document, qualification, entry, country, rep) -> new Partner(
                        kind,
                        name,
                        document,
                        qualification,
                        null,
                        entry,
                        country,
                        (String) rep.get(0),
                        (String) rep.get(1),
                        (String) rep.get(2),
                        null,
                        (Integer) rep.get(3)));
    }
}
