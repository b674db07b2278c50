package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.testing.DumpFixture;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dump that is unusable as a whole stops the load with a message naming the files. */
class StructuralFaultTest {
    @TempDir
    Path tmp;

    private StructuralFaultException loadFails(Path dump) {
        return assertThrows(
                StructuralFaultException.class,
                () -> DumpReader.open(DumpFixture.options(dump, tmp).build()).readInto(e -> {}));
    }

    @Test
    void stopsWhenAFileFamilyIsMissing() throws IOException {
        Path dump = DumpFixture.dump().writeTo(tmp.resolve("dump"));
        Files.delete(dump.resolve("Socios4.zip"));
        Files.delete(dump.resolve("Paises.zip"));
        String message = loadFails(dump).getMessage();
        assertTrue(message.contains("lacks Socios4.zip, Paises.zip"), message);
    }

    @Test
    void stopsWhenTheFilesCarryTwoExtractionDates() throws IOException {
        Path dump = DumpFixture.dump().writeTo(tmp.resolve("dump"));
        DumpFixture.zip(dump.resolve("Empresas2.zip"), Family.EMPRESAS.innerName(2, "D60712"), new byte[0]);
        String message = loadFails(dump).getMessage();
        assertTrue(message.contains("mixes files of different extraction dates"), message);
        assertTrue(message.contains("D60712: Empresas2.zip"), message);
    }

    @Test
    void stopsWhenAZipHoldsAnotherFamilysFile() throws IOException {
        Path dump = DumpFixture.dump().writeTo(tmp.resolve("dump"));
        DumpFixture.zip(dump.resolve("Empresas2.zip"), Family.SOCIOS.innerName(2, "D60808"), new byte[0]);
        String message = loadFails(dump).getMessage();
        assertTrue(
                message.contains("Empresas2.zip holds K3241.K03200Y2.D60808.SOCIOCSV, which is a Socios file"),
                message);
    }

    @Test
    void stopsWhenAZipIsNotAZip() throws IOException {
        Path dump = DumpFixture.dump().writeTo(tmp.resolve("dump"));
        Files.writeString(dump.resolve("Cnaes.zip"), "<html>404</html>");
        String message = loadFails(dump).getMessage();
        assertTrue(message.contains("Cnaes.zip is not a readable ZIP"), message);
    }

    @Test
    void stopsWhenAnEntryFailsItsCrc() throws IOException {
        Path dump = DumpFixture.dump()
                .rows(Family.EMPRESAS, 5, "\"11222333\";\"EMPRESA A LTDA\";\"2062\";\"49\";\"0,00\";\"05\";\"\"\n")
                .writeTo(tmp.resolve("dump"));
        // A stored (uncompressed) entry, then one byte of its data flipped on disk: the CRC no longer matches.
        byte[] content = "\"11222333\";\"EMPRESA A LTDA\";\"2062\";\"49\";\"0,00\";\"05\";\"\"\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        Path zip = dump.resolve("Estabelecimentos6.zip");
        try (OutputStream out = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(out)) {
            ZipEntry e = new ZipEntry(Family.ESTABELECIMENTOS.innerName(6, "D60808"));
            e.setMethod(ZipEntry.STORED);
            e.setSize(content.length);
            CRC32 crc = new CRC32();
            crc.update(content);
            e.setCrc(crc.getValue());
            z.putNextEntry(e);
            z.write(content);
            z.closeEntry();
        }
        byte[] bytes = Files.readAllBytes(zip);
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int at = text.indexOf("EMPRESA A");
        bytes[at] = 'X';
        Files.write(zip, bytes);
        String message = loadFails(dump).getMessage();
        assertTrue(message.contains("Estabelecimentos6.zip fails its CRC check"), message);
    }

    @Test
    void stopsWhenTheFolderDoesNotExist() {
        String message = loadFails(tmp.resolve("nowhere")).getMessage();
        assertTrue(message.contains("does not exist"), message);
    }
}
