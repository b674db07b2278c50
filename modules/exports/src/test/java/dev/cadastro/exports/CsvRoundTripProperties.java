package dev.cadastro.exports;

import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.register.Empresa;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

class CsvRoundTripProperties {

    /** Any record survives the CSV: written, parsed by an independent reader, decoded, equal field by field. */
    @Property(tries = 300)
    void everyRecordReadsBackFromTheCsv(@ForAll("leads") @Size(max = 12) List<Empresa> leads) {
        List<List<String>> rows = PtBrCsv.parse(Leads.onlyEntry(Leads.export(ExportFormat.CSV, "p.csv", leads)));
        if (rows.size() != leads.size() + 1) {
            throw new AssertionError("rows " + rows.size() + " for " + leads.size() + " records");
        }
        for (int i = 0; i < leads.size(); i++) {
            PtBrCsv.assertSameLead(leads.get(i), PtBrCsv.decode(rows.get(i + 1)), i + 1);
        }
    }

    @Provide
    Arbitrary<List<Empresa>> leads() {
        return empresas().list();
    }

    private static Arbitrary<Empresa> empresas() {
        List<Arbitrary<Object>> fields = new ArrayList<>();
        for (var component : Leads.components()) {
            Arbitrary<?> field;
            if (component.getType() == BigDecimal.class) {
                field = amounts();
            } else if (component.getType() == LocalDate.class) {
                field = dates();
            } else {
                field = Arbitraries.oneOf(texts(), codes());
            }
            fields.add(field.injectNull(0.15).map(v -> (Object) v));
        }
        return Combinators.combine(fields)
                .as(values -> new Empresa(
                        (String) values.get(0),
                        (String) values.get(1),
                        (String) values.get(2),
                        (String) values.get(3),
                        (String) values.get(4),
                        (String) values.get(5),
                        (String) values.get(6),
                        (String) values.get(7),
                        (String) values.get(8),
                        (String) values.get(9),
                        (String) values.get(10),
                        (BigDecimal) values.get(11),
                        (LocalDate) values.get(12),
                        (String) values.get(13),
                        (String) values.get(14),
                        (String) values.get(15),
                        (String) values.get(16),
                        (String) values.get(17),
                        (String) values.get(18),
                        (String) values.get(19)));
    }

    /** Any text without lone surrogates, leaning on the characters that matter to a CSV and a spreadsheet. */
    private static Arbitrary<String> texts() {
        Arbitrary<String> awkward = Arbitraries.strings()
                .withChars(";\"\r\n\t'=+-@ ,.()/áÃçÉ€😀".toCharArray())
                .withCharRange('a', 'c')
                .ofMaxLength(12);
        Arbitrary<String> any = Arbitraries.strings()
                .withCharRange('\u0000', '\uD7FF')
                .withCharRange('\uE000', '\uFFFD')
                .ofMaxLength(30);
        Arbitrary<String> emoji =
                Arbitraries.of("😀", "𝄞", "🇧🇷").list().ofMaxSize(3).map(l -> String.join("", l));
        return Arbitraries.oneOf(awkward, any, emoji).filter(CsvRoundTripProperties::noLoneSurrogate);
    }

    /** Digits with leading zeros, sometimes with the punctuation of a phone or a CEP. */
    private static Arbitrary<String> codes() {
        return Arbitraries.strings()
                .withChars("0123456789()-/. ")
                .ofMinLength(1)
                .ofMaxLength(16);
    }

    private static Arbitrary<BigDecimal> amounts() {
        return Arbitraries.integers()
                .between(0, 4)
                .flatMap(scale -> Arbitraries.bigDecimals()
                        .between(new BigDecimal("-1000"), new BigDecimal("100000000000000"))
                        .ofScale(scale));
    }

    private static Arbitrary<LocalDate> dates() {
        return Arbitraries.longs()
                .between(
                        LocalDate.of(1900, 1, 1).toEpochDay(),
                        LocalDate.of(2099, 12, 31).toEpochDay())
                .map(LocalDate::ofEpochDay);
    }

    private static boolean noLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
