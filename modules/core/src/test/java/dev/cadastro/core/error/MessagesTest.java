package dev.cadastro.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The two message bundles against the {@link Message} keys, read on the module path as the server reads them. */
class MessagesTest {

    private static final List<Locale> LANGUAGES = Messages.SUPPORTED;

    @Test
    void everyKeyHasANonBlankTextInBothLanguages() {
        List<String> missing = new ArrayList<>();
        for (Locale language : LANGUAGES) {
            ResourceBundle bundle = Messages.bundle(language);
            for (Message key : Message.values()) {
                if (!bundle.containsKey(key.name())
                        || bundle.getString(key.name()).isBlank()) {
                    missing.add(language + ":" + key);
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void bothBundlesHoldOnlyKnownKeys() {
        Set<String> known = Stream.of(Message.values()).map(Enum::name).collect(Collectors.toSet());
        for (Locale language : LANGUAGES) {
            Set<String> extra = new TreeSet<>(Messages.bundle(language).keySet());
            extra.removeAll(known);
            assertEquals(Set.of(), extra, "keys in the " + language + " bundle that no Message constant names");
        }
    }

    @Test
    void bothLanguagesUseTheSamePlaceholders() {
        List<String> differ = new ArrayList<>();
        for (Message key : Message.values()) {
            Set<Integer> en =
                    Messages.placeholders(Messages.bundle(Locale.ENGLISH).getString(key.name()));
            Set<Integer> pt =
                    Messages.placeholders(Messages.bundle(Messages.PORTUGUESE).getString(key.name()));
            if (!en.equals(pt)) {
                differ.add(key + " en" + en + " pt" + pt);
            }
            // Placeholders are 0..n-1 without a gap, so every argument a call site passes is shown.
            for (int i = 0; i < en.size(); i++) {
                if (!en.contains(i)) {
                    differ.add(key + " skips {" + i + "}");
                }
            }
        }
        assertEquals(List.of(), differ);
    }

    @Test
    void theBundlesAreDifferentLanguagesNotCopies() {
        // A key whose Portuguese text is the English one was forgotten in translation; these few are the
        // same in both languages on purpose (a value list, a label and its value).
        Set<Message> same = EnumSet.of(Message.REQUEST_ID_IS, Message.OPERATOR_TEXT);
        List<Message> copied = new ArrayList<>();
        for (Message key : Message.values()) {
            String en = Messages.bundle(Locale.ENGLISH).getString(key.name());
            String pt = Messages.bundle(Messages.PORTUGUESE).getString(key.name());
            if (en.equals(pt) && !same.contains(key)) {
                copied.add(key);
            }
        }
        assertEquals(List.of(), copied);
    }

    @Test
    void portugueseIsWrittenInUtf8WithAccents() {
        assertEquals(
                "limite 500 excede o máximo 200",
                Message.MAXIMUM.with("limite", 500, 200).render(Messages.PORTUGUESE));
        assertEquals("cpf é obrigatório", Message.CPF_REQUIRED.with().render(Messages.PORTUGUESE));
    }

    @Test
    void everyKeyIsUsedByTheProductCode() throws IOException {
        Path modules = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isDirectory(modules.resolve("core")), "run from the core module's folder: " + modules);
        StringBuilder sources = new StringBuilder();
        // The modules and the loader beside them: every main source that may raise a CadastroException.
        try (Stream<Path> files =
                Stream.concat(Files.walk(modules), Files.walk(modules.resolveSibling("data-loader")))) {
            files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> f.toString().contains("/src/main/java/"))
                    .filter(f -> !f.getFileName().toString().equals("Message.java"))
                    .forEach(f -> {
                        try {
                            sources.append(Files.readString(f));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
        }
        Set<String> words = java.util.regex.Pattern.compile("\\b[A-Z][A-Z0-9_]*\\b")
                .matcher(sources)
                .results()
                .map(java.util.regex.MatchResult::group)
                .collect(Collectors.toSet());
        List<Message> unused = Stream.of(Message.values())
                .filter(key -> !words.contains(key.name()))
                .toList();
        assertEquals(List.of(), unused, "keys no main source names: drop them from the enum and both bundles");
        assertFalse(words.isEmpty());
    }
}
