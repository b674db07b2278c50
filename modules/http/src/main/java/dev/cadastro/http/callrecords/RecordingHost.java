package dev.cadastro.http.callrecords;

import dev.cadastro.core.calls.RecordingLinks;
import dev.cadastro.core.error.LocalizedText;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.error.Messages;
import dev.cadastro.core.files.FileStore;
import dev.cadastro.http.AcceptLanguage;
import dev.cadastro.http.ErrorResponses;
import dev.cadastro.http.Handler;
import dev.cadastro.http.Headers;
import dev.cadastro.http.Request;
import dev.cadastro.http.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The recording host: serves the WAV files of the {@link FileStore} to whoever holds a link signed by
 * {@link RecordingLinks}, as a CDN in front of an object store would. It runs on its own listener (its
 * base URL is configurable, so a real CDN can take its place) and never needs or reads a token: the
 * signature in the query is the only credential, so an {@code Authorization} a client forwards by
 * mistake is ignored.
 *
 * <ul>
 *   <li>{@code GET} and {@code HEAD} of {@code <base path>/<recording key>?k=..&s=..}: 200 with {@code
 *       Content-Type: audio/wav} and {@code Accept-Ranges: bytes};
 *   <li>a single {@code Range: bytes=a-b}, {@code a-} or {@code -n}: 206 with {@code Content-Range};
 *       416 with {@code Content-Range: bytes *}{@code /size} when it starts beyond the file; a list of
 *       ranges is answered whole (200), as RFC 9110 allows;
 *   <li>403 for a missing, tampered or expired signature; 404 when the signed file is gone; 405 for any
 *       other method;
 *   <li>when the store mints its own links (an object store's presigned GET, {@link
 *       FileStore#temporaryLink}), a valid signature is answered 302 to a new one-hour link on the store
 *       instead of the bytes, so a permanent link outlives the store's longest presigned URL and any
 *       server sharing the bucket answers it.
 * </ul>
 */
public final class RecordingHost implements Handler {
    private static final String WAV = "audio/wav";
    private static final String TEXT = "text/plain; charset=utf-8";

    private final RecordingLinks links;
    private final FileStore files;
    private final String basePath;

    /** Serves the recordings of {@code files} under the path of the links' base URL. */
    public RecordingHost(RecordingLinks links, FileStore files) {
        this.links = Objects.requireNonNull(links, "links");
        this.files = Objects.requireNonNull(files, "files");
        String path = URI.create(links.baseUrl()).getRawPath();
        this.basePath = path == null ? "" : path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    @Override
    public Response handle(Request request) throws IOException {
        String method = request.method();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return text(request, 405, Message.RECORDING_METHOD.with(method)).withHeader("Allow", "GET, HEAD");
        }
        String path = request.rawPath();
        if (!path.startsWith(basePath + "/")) {
            return text(request, 404, Message.RECORDING_NO_PATH.with());
        }
        String key = path.substring(basePath.length() + 1);
        if (!key.matches("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*") || key.contains("..")) {
            return text(request, 404, Message.RECORDING_NO_PATH.with());
        }
        switch (links.verify(key, request.rawQuery())) {
            case VALID -> {}
            case EXPIRED -> {
                return text(request, 403, Message.RECORDING_LINK_EXPIRED.with());
            }
            case INVALID -> {
                return text(request, 403, Message.RECORDING_LINK_INVALID.with());
            }
        }
        Optional<URI> direct;
        try {
            direct = files.temporaryLink(key, RecordingLinks.TEMPORARY_VALIDITY);
        } catch (IllegalArgumentException e) {
            direct = Optional.empty();
        }
        Optional<FileStore.Download> found;
        try {
            // With a link to mint, an empty slice only checks that the file is there (a HEAD on a bucket).
            found = direct.isPresent() ? files.open(key, 0, 0) : files.open(key);
        } catch (IllegalArgumentException e) {
            // A key the store cannot hold (a segment starting with a dot) has no file.
            found = Optional.empty();
        }
        if (found.isEmpty()) {
            return text(request, 404, Message.RECORDING_NOT_STORED.with());
        }
        if (direct.isPresent()) {
            found.get().close();
            // The new link is a bearer credential for one hour: no cache may keep it.
            return new Response(
                    302, Headers.of("Location", direct.get().toString(), "Cache-Control", "no-store"), new byte[0]);
        }
        FileStore.Download download = found.get();
        long size = download.size();
        Optional<String> range = request.headers().first("Range");
        long start = 0;
        long end = size - 1;
        boolean partial = false;
        if (range.isPresent() && request.headers().all("Range").size() == 1) {
            long[] r = parseRange(range.get().trim(), size);
            if (r == UNSATISFIABLE) {
                download.close();
                return text(request, 416, Message.RECORDING_RANGE.with(range.get(), size))
                        .withHeader("Content-Range", "bytes */" + size);
            }
            if (r != null) {
                start = r[0];
                end = r[1];
                partial = true;
            }
        }
        Response response = Response.stream(partial ? 206 : 200, WAV, new Slice(download, start, end - start + 1))
                .withHeader("Accept-Ranges", "bytes")
                .withHeader("Cache-Control", "private, no-transform");
        return partial ? response.withHeader("Content-Range", "bytes " + start + "-" + end + "/" + size) : response;
    }

    private static final long[] UNSATISFIABLE = new long[0];

    /**
     * The inclusive byte range of a single-range {@code Range} value; null to answer the whole file
     * (not a bytes range, several ranges, or malformed: RFC 9110 lets a server ignore it), {@link
     * #UNSATISFIABLE} when it selects nothing of the file.
     */
    static long[] parseRange(String value, long size) {
        if (!value.regionMatches(true, 0, "bytes=", 0, 6)) {
            return null;
        }
        String spec = value.substring(6).trim();
        if (spec.contains(",") || !spec.matches("([0-9]{1,18})?-([0-9]{1,18})?") || spec.equals("-")) {
            return null;
        }
        int dash = spec.indexOf('-');
        String first = spec.substring(0, dash);
        String last = spec.substring(dash + 1);
        if (first.isEmpty()) {
            long suffix = Long.parseLong(last);
            if (suffix == 0 || size == 0) {
                return UNSATISFIABLE;
            }
            return new long[] {Math.max(0, size - suffix), size - 1};
        }
        long a = Long.parseLong(first);
        if (!last.isEmpty() && Long.parseLong(last) < a) {
            return null;
        }
        if (a >= size) {
            return UNSATISFIABLE;
        }
        long b = last.isEmpty() ? size - 1 : Math.min(Long.parseLong(last), size - 1);
        return new long[] {a, b};
    }

    /** A plain-text refusal in the request's language (Accept-Language), as the APIs' envelopes. */
    private static Response text(Request request, int status, LocalizedText message) {
        return new Response(
                status,
                Headers.of(
                        "Content-Type",
                        TEXT,
                        ErrorResponses.CONTENT_LANGUAGE,
                        Messages.answered(request.locale()).toLanguageTag(),
                        "Vary",
                        AcceptLanguage.HEADER),
                (message.render(request.locale()) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Part of a stored file, streamed to the connection. */
    private record Slice(FileStore.Download download, long offset, long length) implements Response.Streamed {
        @Override
        public void writeTo(OutputStream out) throws IOException {
            InputStream in = download.stream();
            in.skipNBytes(offset);
            byte[] buffer = new byte[64 * 1024];
            long left = length;
            while (left > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException("the recording ended " + left + " bytes early");
                }
                out.write(buffer, 0, n);
                left -= n;
            }
        }

        @Override
        public void close() throws IOException {
            download.close();
        }
    }
}
