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
 * @param debtCompanies companies written as debtors into the synthetic PGFN files (distinct roots)
 * @param debtRows company rows ("Pessoa jurídica") of the PGFN files; natural persons' rows come beside
 *     them and are not counted here
 * @param elapsed time taken
 */
public record GeneratedDump(
        Path dir,
        String dateCode,
        long establishments,
        long establishmentRows,
        long companies,
        Map<Quirk, Long> quirks,
        long debtCompanies,
        long debtRows,
        Duration elapsed) {
    /** The folder of the synthetic PGFN active-debt files, {@code debt/} inside the dump folder. */
    public static final String DEBT_FOLDER = "debt";

    public GeneratedDump {
        quirks = Collections.unmodifiableMap(quirks.isEmpty() ? new EnumMap<>(Quirk.class) : new EnumMap<>(quirks));
    }

    /** The synthetic PGFN files' folder ({@code --debt} of a load); null when none were written. */
    public Path debtDir() {
        Path debt = dir.resolve(DEBT_FOLDER);
        return java.nio.file.Files.isDirectory(debt) ? debt : null;
    }
}
