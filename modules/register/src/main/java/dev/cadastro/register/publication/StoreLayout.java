package dev.cadastro.register.publication;

import dev.cadastro.core.files.FileStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Where a published register lives in a {@link FileStore}, under a prefix: {@code CURRENT} (the
 * pointer), {@code gen-<n>.manifest} and the files of each generation under {@code gen-<n>/}.
 */
record StoreLayout(FileStore store, String prefix) {
    static final String POINTER = "CURRENT";
    /** Neither the pointer nor a manifest is ever this large; a bigger object is refused unread. */
    private static final int SMALL_OBJECT_LIMIT = 64 << 20;

    StoreLayout {
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            prefix = prefix + "/";
        }
    }

    String pointerKey() {
        return prefix + POINTER;
    }

    String manifestKey(long generation) {
        return prefix + "gen-" + generation + ".manifest";
    }

    String fileKey(long generation, String name) {
        return prefix + "gen-" + generation + "/" + name;
    }

    Optional<Pointer> pointer() throws IOException {
        Optional<byte[]> bytes = readSmall(pointerKey());
        return bytes.isEmpty()
                ? Optional.empty()
                : Optional.of(Pointer.parse(new String(bytes.get(), StandardCharsets.UTF_8), pointerKey()));
    }

    /** Every generation number with a file or a manifest under the prefix (complete or not). */
    TreeSet<Long> generations() throws IOException {
        TreeSet<Long> out = new TreeSet<>();
        for (FileStore.Entry e : store.list(prefix + "gen-")) {
            String rest = e.key().substring(prefix.length() + "gen-".length());
            int end = 0;
            while (end < rest.length() && Character.isDigit(rest.charAt(end))) {
                end++;
            }
            if (end > 0
                    && end <= 18
                    && (rest.startsWith("/", end) || rest.substring(end).equals(".manifest"))) {
                out.add(Long.parseLong(rest.substring(0, end)));
            }
        }
        return out;
    }

    Optional<byte[]> readSmall(String key) throws IOException {
        Optional<FileStore.Download> d = store.open(key);
        if (d.isEmpty()) {
            return Optional.empty();
        }
        try (FileStore.Download download = d.get();
                InputStream in = download.stream()) {
            if (download.size() > SMALL_OBJECT_LIMIT) {
                throw new IOException(key + " is " + download.size() + " bytes, more than a pointer or manifest");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.max(16, download.size()));
            in.transferTo(out);
            return Optional.of(out.toByteArray());
        }
    }

    void write(String key, byte[] bytes) throws IOException {
        try (FileStore.Upload up = store.create(key)) {
            up.stream().write(bytes);
            long size = up.commit();
            if (size != bytes.length) {
                throw new IOException(key + " was stored with " + size + " bytes instead of " + bytes.length);
            }
        }
    }
}
