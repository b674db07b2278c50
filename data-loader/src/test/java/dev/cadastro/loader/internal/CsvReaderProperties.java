package dev.cadastro.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Whatever the dump's writer puts inside a quoted field (quotes undoubled, {@code ;}, line feeds, CRs,
 * WIN-1252 characters) the reader returns unchanged, except the one sequence no reader can tell from a
 * field boundary: a quote followed by {@code ;} or by a line end.
 */
class CsvReaderProperties {
    @Provide
    Arbitrary<List<List<String>>> records() {
        Arbitrary<String> field = Arbitraries.strings()
                .withChars('A', 'z', '0', ' ', '"', ';', '\n', '\r', 'ç', 'Ã', '\u2013', '\u201C', '\u00A0')
                .ofMaxLength(12)
                .filter(s -> !s.contains("\";") && !s.contains("\"\n") && !s.contains("\"\r"));
        // Long fields too, so records outgrow the reader's initial buffers on both paths.
        Arbitrary<String> longField = Arbitraries.strings()
                .withChars('a', 'b', '"', ' ')
                .ofMinLength(500)
                .ofMaxLength(3000);
        return Arbitraries.frequencyOf(Tuple.of(9, field), Tuple.of(1, longField))
                .list()
                .ofMinSize(1)
                .ofMaxSize(8)
                .list()
                .ofMaxSize(20);
    }

    @Property(tries = 500)
    void readsBackEveryRecordTheDumpWriterWrites(@ForAll("records") List<List<String>> records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (List<String> record : records) {
            for (int i = 0; i < record.size(); i++) {
                if (i > 0) {
                    out.write(';');
                }
                out.write('"');
                for (char c : record.get(i).toCharArray()) {
                    out.write(Latin1.encode(c));
                }
                out.write('"');
            }
            out.write('\n');
        }
        List<List<String>> read = new ArrayList<>();
        try (CsvReader r = new CsvReader(new ByteArrayInputStream(out.toByteArray()), ';', 1 << 20)) {
            while (r.next()) {
                List<String> fields = new ArrayList<>();
                for (int i = 0; i < r.fieldCount(); i++) {
                    String s = r.string(i);
                    fields.add(s == null ? "" : s);
                }
                read.add(fields);
            }
        }
        assertEquals(records, read);
    }
}
