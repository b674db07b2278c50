package dev.cadastro.loader.testing;

import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.internal.Tables;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes small dump folders for tests: the 37 ZIPs, the bundled lookup tables, chosen rows. Published in
 * the loader's test-jar for the tests of a load into the register (the server module's).
 */
public final class DumpFixture {
    private final Map<String, byte[]> contents = new HashMap<>();
    private String dateCode = "D60808";

    public static DumpFixture dump() {
        return new DumpFixture();
    }

    /** The rows (ISO-8859-1 text) of part {@code part} of a family. */
    public DumpFixture rows(Family family, int part, String text) {
        return bytes(family, part, text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public DumpFixture rows(Family family, String text) {
        return rows(family, 0, text);
    }

    public DumpFixture bytes(Family family, int part, byte[] bytes) {
        contents.put(family.zipName(part), bytes);
        return this;
    }

    /** The bytes of a test resource, byte-exact. */
    public static byte[] resource(String path) {
        try (InputStream in = DumpFixture.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public DumpFixture dateCode(String code) {
        this.dateCode = code;
        return this;
    }

    public Path writeTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Family f : Family.values()) {
            for (int part = 0; part < f.parts(); part++) {
                byte[] content = contents.get(f.zipName(part));
                if (content == null) {
                    content = f.isLookup() ? Tables.bundled(Tables.bundledName(f)) : new byte[0];
                }
                zip(dir.resolve(f.zipName(part)), f.innerName(part, dateCode), content);
            }
        }
        return dir;
    }

    public static void zip(Path file, String entryName, byte[] content) throws IOException {
        try (OutputStream out = Files.newOutputStream(file);
                ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry(entryName));
            zip.write(content);
            zip.closeEntry();
        }
    }

    /** Options for a test load: one index thread, rejects and scratch under {@code work}. */
    public static LoadOptions.Builder options(Path dump, Path work) {
        return LoadOptions.builder(dump)
                .rejects(work.resolve("rejects.tsv"))
                .scratch(work.resolve("scratch"))
                .indexThreads(1);
    }

    /** An Estabelecimentos row of {@code cnpj}, active, in SAO PAULO/SP; {@code overrides}: field index, value. */
    public static String estab(String cnpj, Object... overrides) {
        String[] f = new String[30];
        Arrays.fill(f, "");
        f[0] = cnpj.substring(0, 8);
        f[1] = cnpj.substring(8, 12);
        f[2] = cnpj.substring(12);
        f[3] = "1";
        f[5] = "02";
        f[6] = "20200101";
        f[7] = "00";
        f[10] = "20200101";
        f[11] = "4751201";
        f[19] = "SP";
        f[20] = "7107";
        for (int i = 0; i < overrides.length; i += 2) {
            f[(Integer) overrides[i]] = (String) overrides[i + 1];
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < f.length; i++) {
            sb.append(i == 0 ? "" : ";").append('"').append(f[i]).append('"');
        }
        return sb.append('\n').toString();
    }
}
