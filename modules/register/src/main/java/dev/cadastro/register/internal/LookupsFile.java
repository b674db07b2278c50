package dev.cadastro.register.internal;

import dev.cadastro.core.register.Lookups;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * The lookup tables stored beside each generation ({@code lookups.bin}), so a searcher describes codes
 * and resolves municipality names with the tables of the dump it was built from. Layout: magic, version,
 * eight tables of (count, key/value pairs), CRC32 of everything before it.
 */
public final class LookupsFile {
    public static final String NAME = "lookups.bin";
    private static final int MAGIC = 0x43414c4b; // "CALK"
    private static final int VERSION = 1;

    private LookupsFile() {}

    public static void write(Path file, Lookups l) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            for (Map<String, String> m : tables(l)) {
                out.writeInt(m.size());
                for (Map.Entry<String, String> e : new TreeMap<>(m).entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeUTF(e.getValue());
                }
            }
        }
        CRC32 crc = new CRC32();
        crc.update(bytes.toByteArray());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(crc.getValue());
        }
        Durable.write(file, bytes.toByteArray());
    }

    public static Lookups read(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        if (all.length < 16) {
            throw new IOException(file + " is truncated (" + all.length + " bytes)");
        }
        CRC32 crc = new CRC32();
        crc.update(all, 0, all.length - 8);
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(all))) {
            if (in.readInt() != MAGIC) {
                throw new IOException(file + " is not a lookups file");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException(file + " has version " + version + ", expected " + VERSION);
            }
            List<Map<String, String>> maps = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int n = in.readInt();
                Map<String, String> m = new HashMap<>(n * 2);
                for (int i = 0; i < n; i++) {
                    m.put(in.readUTF(), in.readUTF());
                }
                maps.add(m);
            }
            long stored = in.readLong();
            if (stored != crc.getValue()) {
                throw new IOException(file + " fails its checksum");
            }
            return new Lookups(
                    maps.get(0),
                    maps.get(1),
                    maps.get(2),
                    maps.get(3),
                    maps.get(4),
                    maps.get(5),
                    maps.get(6),
                    maps.get(7));
        }
    }

    private static List<Map<String, String>> tables(Lookups l) {
        return List.of(
                l.cnaes(),
                l.municipios(),
                l.naturezas(),
                l.motivos(),
                l.paises(),
                l.qualificacoes(),
                l.municipiosIbge(),
                l.municipiosUf());
    }
}
