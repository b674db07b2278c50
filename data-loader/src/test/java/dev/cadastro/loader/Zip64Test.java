package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.testing.DumpFixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ZIP64 archive (sizes in the ZIP64 extra field, a ZIP64 end of central directory), as the real
 * {@code Estabelecimentos0.zip} of about 7 GB is, reads like any other. Built by hand so the test does
 * not need to write 4 GB.
 */
class Zip64Test {
    @TempDir
    Path tmp;

    @Test
    void readsAnEstablishmentFromAZip64Archive() throws Exception {
        Path dump = DumpFixture.dump()
                .bytes(Family.EMPRESAS, 1, DumpFixture.resource("/receita/sample/Empresas1"))
                .writeTo(tmp.resolve("dump"));
        byte[] rows = DumpFixture.resource("/receita/sample/Estabelecimentos0");
        writeZip64(dump.resolve("Estabelecimentos0.zip"), Family.ESTABELECIMENTOS.innerName(0, "D60808"), rows);
        try (ZipFile zip = new ZipFile(dump.resolve("Estabelecimentos0.zip").toFile())) {
            assertEquals(rows.length, zip.entries().nextElement().getSize(), "the size comes from the ZIP64 field");
        }

        CollectingSink sink = new CollectingSink();
        DumpReader.open(DumpFixture.options(dump, tmp).build()).readInto(sink);
        assertNotNull(sink.get("33683111000280"));
        assertEquals("REGIONAL BRASILIA-DF", sink.get("33683111000280").nomeFantasia());
    }

    /** One stored entry whose sizes are given only in ZIP64 extra fields. */
    static void writeZip64(Path file, String name, byte[] content) throws IOException {
        CRC32 crc = new CRC32();
        crc.update(content);
        byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer local = le(30 + nameBytes.length + 20);
        local.putInt(0x04034b50).putShort((short) 45).putShort((short) 0).putShort((short) 0);
        local.putShort((short) 0).putShort((short) 0x5921).putInt((int) crc.getValue());
        local.putInt(-1).putInt(-1).putShort((short) nameBytes.length).putShort((short) 20);
        local.put(nameBytes)
                .putShort((short) 1)
                .putShort((short) 16)
                .putLong(content.length)
                .putLong(content.length);
        out.write(local.array());
        out.write(content);
        long cdOffset = out.size();
        ByteBuffer central = le(46 + nameBytes.length + 20);
        central.putInt(0x02014b50)
                .putShort((short) 45)
                .putShort((short) 45)
                .putShort((short) 0)
                .putShort((short) 0);
        central.putShort((short) 0).putShort((short) 0x5921).putInt((int) crc.getValue());
        central.putInt(-1)
                .putInt(-1)
                .putShort((short) nameBytes.length)
                .putShort((short) 20)
                .putShort((short) 0);
        central.putShort((short) 0).putShort((short) 0).putInt(0).putInt(0);
        central.put(nameBytes)
                .putShort((short) 1)
                .putShort((short) 16)
                .putLong(content.length)
                .putLong(content.length);
        out.write(central.array());
        long cdSize = out.size() - cdOffset;
        long zip64End = out.size();
        ByteBuffer end64 = le(56);
        end64.putInt(0x06064b50)
                .putLong(44)
                .putShort((short) 45)
                .putShort((short) 45)
                .putInt(0)
                .putInt(0);
        end64.putLong(1).putLong(1).putLong(cdSize).putLong(cdOffset);
        out.write(end64.array());
        ByteBuffer locator = le(20);
        locator.putInt(0x07064b50).putInt(0).putLong(zip64End).putInt(1);
        out.write(locator.array());
        ByteBuffer end = le(22);
        end.putInt(0x06054b50)
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) -1)
                .putShort((short) -1);
        end.putInt(-1).putInt(-1).putShort((short) 0);
        out.write(end.array());
        Files.write(file, out.toByteArray());
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
