package dev.cadastro.loader.internal;

import dev.cadastro.core.register.Establishment.Company;
import java.io.Closeable;
import java.nio.ByteBuffer;

/**
 * The Empresas rows of a dump, by root, kept off-heap for the join: each row's bytes as the source
 * wrote them (codes and names undecoded, capital parsed to centavos) in an {@link Arena}, found through
 * a {@link RootMap}. About 60 bytes a company: 4 GB of page cache for a full dump, 400 MB of heap.
 */
public final class CompanyStore implements Closeable {
    /** Outcome of {@link #add}. */
    public enum Added {
        ADDED,
        DUPLICATE,
        INVALID_ROOT,
        FIELD_TOO_LONG
    }

    static final int RAZAO = 1;
    static final int NATUREZA = 2;
    static final int QUALIFICACAO = 3;
    static final int CAPITAL = 4;
    static final int PORTE = 5;
    static final int ENTE = 6;

    private final Arena arena;
    private final RootMap roots = new RootMap();
    private final CodeCache codes = new CodeCache();
    private byte[] scratch = new byte[512];

    public CompanyStore(Arena arena) {
        this.arena = arena;
    }

    /** Stores the Empresas record the reader is on (7 fields, checked by the caller). */
    public Added add(CsvReader r, long capitalCentavos) {
        byte[] b = r.bytes();
        if (r.length(NATUREZA) > 255
                || r.length(QUALIFICACAO) > 255
                || r.length(PORTE) > 255
                || r.length(RAZAO) > 0xFFFF
                || r.length(ENTE) > 0xFFFF) {
            return Added.FIELD_TOO_LONG;
        }
        long id = RootMap.id(b, r.start(0), r.length(0));
        if (id < 0) {
            return Added.INVALID_ROOT;
        }
        if (roots.get(id) > 0) {
            return Added.DUPLICATE;
        }
        int size = 3
                + r.length(NATUREZA)
                + r.length(QUALIFICACAO)
                + r.length(PORTE)
                + 8
                + 4
                + r.length(RAZAO)
                + r.length(ENTE);
        if (scratch.length < size) {
            scratch = new byte[Math.max(size, scratch.length * 2)];
        }
        int p = 0;
        p = putShort(b, r, NATUREZA, p);
        p = putShort(b, r, QUALIFICACAO, p);
        p = putShort(b, r, PORTE, p);
        for (int i = 7; i >= 0; i--) {
            scratch[p++] = (byte) (capitalCentavos >>> (8 * i));
        }
        p = putLong(b, r, RAZAO, p);
        p = putLong(b, r, ENTE, p);
        int address = arena.reserve(size);
        arena.chunk(address).put(arena.offset(address), scratch, 0, size);
        roots.putIfAbsent(id, address);
        return Added.ADDED;
    }

    private int putShort(byte[] b, CsvReader r, int field, int p) {
        int len = r.length(field);
        scratch[p++] = (byte) len;
        System.arraycopy(b, r.start(field), scratch, p, len);
        return p + len;
    }

    private int putLong(byte[] b, CsvReader r, int field, int p) {
        int len = r.length(field);
        scratch[p++] = (byte) (len >>> 8);
        scratch[p++] = (byte) len;
        System.arraycopy(b, r.start(field), scratch, p, len);
        return p + len;
    }

    /** The company of a {@link RootMap#id root id}, or null when the dump has no Empresas row for it. */
    public Company get(long rootId) {
        int address = roots.get(rootId);
        if (address <= 0) {
            return null;
        }
        ByteBuffer chunk = arena.chunk(address);
        int p = arena.offset(address);
        int n = chunk.get(p++) & 0xFF;
        String natureza = code(chunk, p, n);
        p += n;
        n = chunk.get(p++) & 0xFF;
        String qualificacao = code(chunk, p, n);
        p += n;
        n = chunk.get(p++) & 0xFF;
        String porte = code(chunk, p, n);
        p += n;
        long capital = chunk.getLong(p);
        p += 8;
        n = ((chunk.get(p) & 0xFF) << 8) | (chunk.get(p + 1) & 0xFF);
        p += 2;
        String razao = text(chunk, p, n);
        p += n;
        n = ((chunk.get(p) & 0xFF) << 8) | (chunk.get(p + 1) & 0xFF);
        p += 2;
        String ente = text(chunk, p, n);
        return new Company(razao, natureza, qualificacao, capital == Values.NO_CAPITAL ? null : capital, porte, ente);
    }

    private String code(ByteBuffer chunk, int p, int n) {
        if (n == 0) {
            return null;
        }
        chunk.get(p, scratch, 0, n);
        return codes.get(scratch, 0, n);
    }

    private String text(ByteBuffer chunk, int p, int n) {
        if (n == 0) {
            return null;
        }
        if (scratch.length < n) {
            scratch = new byte[n];
        }
        chunk.get(p, scratch, 0, n);
        return Latin1.decode(scratch, 0, n);
    }

    /** Companies held. */
    public long size() {
        return roots.size();
    }

    @Override
    public void close() {
        arena.close();
    }
}
