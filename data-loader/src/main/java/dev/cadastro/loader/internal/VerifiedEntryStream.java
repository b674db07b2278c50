package dev.cadastro.loader.internal;

import dev.cadastro.loader.StructuralFaultException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * The bytes of a dump file, read straight out of its ZIP (no extraction), checked at the end against
 * the CRC-32 and the size the ZIP records. {@link ZipFile} reads ZIP64 archives but does not check
 * CRCs itself; a mismatch or corrupt deflate data is a {@link StructuralFaultException}.
 */
public final class VerifiedEntryStream extends FilterInputStream {
    private final ZipFile zip;
    private final DumpFile file;
    private final CRC32 crc = new CRC32();
    private long count;
    private boolean verified;

    private VerifiedEntryStream(ZipFile zip, InputStream in, DumpFile file) {
        super(in);
        this.zip = zip;
        this.file = file;
    }

    public static VerifiedEntryStream open(DumpFile file) {
        try {
            ZipFile zip = new ZipFile(file.zip().toFile());
            var entry = zip.getEntry(file.entryName());
            if (entry == null) {
                zip.close();
                throw new StructuralFaultException(file.zipName() + " no longer holds " + file.entryName());
            }
            return new VerifiedEntryStream(zip, zip.getInputStream(entry), file);
        } catch (IOException e) {
            throw new StructuralFaultException(file.zipName() + " cannot be opened as a ZIP: " + e.getMessage(), e);
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = in.read(b, off, len);
        } catch (ZipException | java.io.EOFException e) {
            throw new StructuralFaultException(
                    file.zipName() + " is corrupt: " + e.getMessage() + " after " + count + " bytes of "
                            + file.entryName(),
                    e);
        }
        if (n > 0) {
            crc.update(b, off, n);
            count += n;
        } else if (n < 0) {
            verify();
        }
        return n;
    }

    private void verify() {
        if (verified) {
            return;
        }
        verified = true;
        if (file.size() >= 0 && count != file.size()) {
            throw new StructuralFaultException(file.zipName() + ": " + file.entryName() + " has " + count
                    + " bytes, the ZIP records " + file.size());
        }
        if (file.crc() >= 0 && crc.getValue() != file.crc()) {
            throw new StructuralFaultException(String.format(
                    Locale.ROOT,
                    "%s fails its CRC check: %s has CRC-32 %08x, the ZIP records %08x (a damaged download?)",
                    file.zipName(),
                    file.entryName(),
                    crc.getValue(),
                    file.crc()));
        }
    }

    @Override
    public long skip(long n) throws IOException {
        throw new IOException("skip is not supported: every byte must pass the CRC check");
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public void close() throws IOException {
        try {
            in.close();
        } finally {
            zip.close();
        }
    }
}
