package dev.cadastro.core.document;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The snippet of README.md's "Embedding", kept compiling and true. */
class ReadmeExampleTest {

    @Test
    void theEmbeddingSnippetCompilesAndPrintsWhatTheReadmeSays() {
        PrintStream saved = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            for (String input : new String[] {"12abc34501de35", "12.ABC.345/01DE-36"}) {
                // --- README.md, "Embedding" ---
                switch (Cnpj.parse(input)) {
                    case Parsed.Valid<Cnpj> v -> System.out.println(v.value().formatted()); // 12.ABC.345/01DE-35
                    case Parsed.Invalid<Cnpj> i ->
                        System.out.println(i.violation().message()); // names field and rule
                }
                // --- end of snippet ---
            }
        } finally {
            System.setOut(saved);
        }
        assertEquals(
                "12.ABC.345/01DE-35\ncnpj '12.ABC.345/01DE-36' has check digits 36, expected 35\n",
                printed.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }
}
