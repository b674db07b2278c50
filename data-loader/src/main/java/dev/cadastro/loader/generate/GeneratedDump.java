package dev.cadastro.loader.generate;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What {@link DumpGenerator} wrote.
 *
 * @param dir the dump folder
 * @param dateCode the extraction date code in every inner file name
 * @param establishments distinct establishments a loader should load (rows written minus quirk rows
 *     that must be rejected)
 * @param establishmentRows Estabelecimentos lines written, quirk lines included
 * @param companies Empresas rows written (distinct roots)
 * @param quirks rows carrying each injected quirk
 * @param elapsed time taken
 */
public record GeneratedDump(
        Path dir,
        String dateCode,
        long establishments,
        long establishmentRows,
        long companies,
        Map<Quirk, Long> quirks,
        Duration elapsed) {
    public GeneratedDump {
        quirks = Collections.unmodifiableMap(quirks.isEmpty() ? new EnumMap<>(Quirk.class) : new EnumMap<>(quirks));
    }
}
