package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.NotEmpty;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

class QueryParametersProperties {

    /** Any multi-map encoded by the JDK's form encoder parses back to itself, order and repeats kept. */
    @Property(tries = 500)
    void parsesBackWhatTheJdkEncoderWrites(
            @ForAll @Size(min = 1, max = 8) List<@AlphaChars @NotEmpty @StringLength(max = 12) String> names,
            @ForAll @Size(min = 1, max = 8) List<@StringLength(max = 20) String> values) {
        Map<String, List<String>> expected = new LinkedHashMap<>();
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String value = values.get(i % values.size()).replaceAll("[\\p{Cntrl}\\p{Cs}]", "x");
            expected.computeIfAbsent(names.get(i), k -> new ArrayList<>()).add(value);
            pairs.add(URLEncoder.encode(names.get(i), StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
        assertEquals(
                expected, QueryParameters.parse(String.join("&", pairs), 100).asMap());
    }
}
