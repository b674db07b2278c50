package dev.cadastro.loader.internal;

import java.nio.file.Path;

/**
 * One ZIP of a dump and the single file it holds.
 *
 * @param size uncompressed size of the entry in bytes (ZIP64 sizes included)
 * @param crc the CRC-32 the ZIP's central directory records for the entry
 */
public record DumpFile(Family family, int part, Path zip, String entryName, long size, long crc, String dateCode) {
    /** {@code Empresas3.zip}. */
    public String zipName() {
        return zip.getFileName().toString();
    }
}
