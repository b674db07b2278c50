package dev.cadastro.loader.internal;

import dev.cadastro.core.register.Establishment.SimplesOption;
import java.nio.ByteBuffer;

/**
 * The Simples rows of a dump, by root: a fixed 18-byte record (two option flags, four epoch days) in an
 * {@link Arena}, found through a {@link RootMap}.
 */
public final class SimplesStore {
    private static final int SIZE = 18;

    private final Arena arena;
    private final RootMap roots = new RootMap();
    private final byte[] scratch = new byte[SIZE];

    public SimplesStore(Arena arena) {
        this.arena = arena;
    }

    /**
     * Stores one row; {@code flags} are {@link #flag} values, dates epoch days or {@link
     * Values#NO_DATE}.
     *
     * @return 0 when stored, a positive value when the root already has a row, -1 for an invalid root
     */
    public int add(
            byte[] b, int s, int len, int simples, int opcao, int exclusao, int mei, int opcaoMei, int exclusaoMei) {
        long id = RootMap.id(b, s, len);
        if (id < 0) {
            return -1;
        }
        int existing = roots.get(id);
        if (existing != 0) {
            return existing;
        }
        scratch[0] = (byte) simples;
        scratch[1] = (byte) mei;
        ByteBuffer w = ByteBuffer.wrap(scratch);
        w.putInt(2, opcao).putInt(6, exclusao).putInt(10, opcaoMei).putInt(14, exclusaoMei);
        int address = arena.reserve(SIZE);
        arena.chunk(address).put(arena.offset(address), scratch, 0, SIZE);
        roots.putIfAbsent(id, address);
        return 0;
    }

    /** 1 for S, 2 for N, 0 for blank or anything else. */
    public static int flag(byte[] b, int s, int len) {
        if (len != 1) {
            return 0;
        }
        return b[s] == 'S' ? 1 : b[s] == 'N' ? 2 : 0;
    }

    private static Boolean option(int flag) {
        return flag == 1 ? Boolean.TRUE : flag == 2 ? Boolean.FALSE : null;
    }

    /** The Simples/MEI options of a {@link RootMap#id root id}, or null when the dump has no row for it. */
    public SimplesOption get(long rootId) {
        int address = roots.get(rootId);
        if (address <= 0) {
            return null;
        }
        ByteBuffer c = arena.chunk(address);
        int p = arena.offset(address);
        return new SimplesOption(
                option(c.get(p)),
                Values.date(c.getInt(p + 2)),
                Values.date(c.getInt(p + 6)),
                option(c.get(p + 1)),
                Values.date(c.getInt(p + 10)),
                Values.date(c.getInt(p + 14)));
    }

    public long size() {
        return roots.size();
    }
}
