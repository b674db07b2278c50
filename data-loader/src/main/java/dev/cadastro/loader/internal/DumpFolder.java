package dev.cadastro.loader.internal;

import dev.cadastro.loader.StructuralFaultException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A monthly dump folder, checked as a whole before any row is read: every family present (10
 * Empresas, 10 Estabelecimentos, 10 Socios, Simples and the 6 lookup tables), each ZIP readable and
 * holding exactly one file of the family its name says, and one extraction date across all inner file
 * names. Any fault is a {@link StructuralFaultException} naming the files.
 */
public final class DumpFolder {
    private final Path dir;
    private final Map<Family, List<DumpFile>> files;
    private final String dateCode;

    private DumpFolder(Path dir, Map<Family, List<DumpFile>> files, String dateCode) {
        this.dir = dir;
        this.files = files;
        this.dateCode = dateCode;
    }

    public static DumpFolder scan(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new StructuralFaultException("the dump folder " + dir + " does not exist or is not a folder");
        }
        Map<String, Path> byLowerName = new HashMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.forEach(p -> byLowerName.put(p.getFileName().toString().toLowerCase(Locale.ROOT), p));
        } catch (IOException e) {
            throw new StructuralFaultException("cannot list the dump folder " + dir + ": " + e.getMessage(), e);
        }
        List<String> missing = new ArrayList<>();
        Map<Family, List<DumpFile>> files = new EnumMap<>(Family.class);
        Map<String, List<String>> dates = new TreeMap<>();
        for (Family family : Family.values()) {
            List<DumpFile> parts = new ArrayList<>();
            for (int part = 0; part < family.parts(); part++) {
                String name = family.zipName(part);
                Path zip = byLowerName.get(name.toLowerCase(Locale.ROOT));
                if (zip == null || !Files.isRegularFile(zip)) {
                    missing.add(name);
                    continue;
                }
                DumpFile file = inspect(family, part, zip);
                dates.computeIfAbsent(file.dateCode(), k -> new ArrayList<>()).add(name);
                parts.add(file);
            }
            files.put(family, List.copyOf(parts));
        }
        if (!missing.isEmpty()) {
            throw new StructuralFaultException("the dump folder " + dir + " lacks " + String.join(", ", missing)
                    + ": a monthly dump has 37 ZIPs (Empresas0-9, Estabelecimentos0-9, Socios0-9, Simples, Cnaes,"
                    + " Motivos, Municipios, Naturezas, Paises, Qualificacoes)");
        }
        if (dates.size() > 1) {
            StringBuilder sb = new StringBuilder();
            dates.forEach((date, names) -> sb.append(sb.isEmpty() ? "" : "; ")
                    .append(date)
                    .append(": ")
                    .append(names.size() <= 4 ? String.join(", ", names) : names.size() + " files"));
            throw new StructuralFaultException("the dump folder " + dir
                    + " mixes files of different extraction dates (" + sb
                    + "); every file of one monthly dump carries the same date");
        }
        return new DumpFolder(dir, files, dates.keySet().iterator().next());
    }

    private static DumpFile inspect(Family family, int part, Path zip) {
        String name = zip.getFileName().toString();
        try (ZipFile zf = new ZipFile(zip.toFile())) {
            List<? extends ZipEntry> entries = Collections.list(zf.entries()).stream()
                    .filter(e -> !e.isDirectory())
                    .toList();
            if (entries.size() != 1) {
                throw new StructuralFaultException(
                        name + " holds " + entries.size() + " files; a dump ZIP holds exactly one");
            }
            ZipEntry entry = entries.get(0);
            Family actual = Family.ofInnerName(entry.getName());
            if (actual != family) {
                throw new StructuralFaultException(name + " holds " + entry.getName() + ", which is "
                        + (actual == null ? "no dump file" : "a " + actual + " file")
                        + "; expected a " + family + " file such as " + family.innerName(part, "D60808"));
            }
            String date = Family.dateCode(entry.getName());
            if (date == null) {
                throw new StructuralFaultException(name + " holds " + entry.getName()
                        + ", whose name has no extraction date (D plus the year's last digit plus MMDD)");
            }
            return new DumpFile(family, part, zip, entry.getName(), entry.getSize(), entry.getCrc(), date);
        } catch (IOException e) {
            throw new StructuralFaultException(name + " is not a readable ZIP: " + e.getMessage(), e);
        }
    }

    public Path dir() {
        return dir;
    }

    /** {@code D60808}. */
    public String dateCode() {
        return dateCode;
    }

    public List<DumpFile> files(Family family) {
        return files.get(family);
    }

    public DumpFile file(Family family) {
        return files.get(family).get(0);
    }

    /** Uncompressed bytes of the given families. */
    public long size(Family... families) {
        long total = 0;
        for (Family f : families) {
            for (DumpFile file : files.get(f)) {
                total += Math.max(0, file.size());
            }
        }
        return total;
    }
}
