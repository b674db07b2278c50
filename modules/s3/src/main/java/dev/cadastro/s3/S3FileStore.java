package dev.cadastro.s3;

import dev.cadastro.core.files.FileStore;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The {@link FileStore} on an S3-compatible object store, under one {@link S3Location}. An upload is
 * buffered a part at a time ({@link #DEFAULT_PART_SIZE}, so never a whole file in memory): a file smaller
 * than a part is one PUT; a larger one is a multipart upload whose parts are sent as they fill, each on
 * a background thread while the writer fills the next (at most one part in flight, so two buffers per
 * upload), and it appears under its key only when CompleteMultipartUpload succeeds; closing it without a commit aborts
 * the upload, so neither an object nor its parts remain. Reads are GETs, ranged when asked; {@link
 * #temporaryLink} is a presigned GET. A store that does not answer is reported as {@link
 * ObjectStoreUnavailableException} (503 to an API client).
 */
public final class S3FileStore implements FileStore, AutoCloseable {
    /** Bytes buffered for one part of a multipart upload: 8 MiB (S3 requires at least 5 MiB but for the last). */
    public static final int DEFAULT_PART_SIZE = 8 << 20;

    /** The longest a presigned link may be valid (S3's limit for Signature Version 4). */
    public static final Duration MAX_LINK_VALIDITY = Duration.ofDays(7);

    private static final int MIN_PART_SIZE = 5 << 20;
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*");
    private static final System.Logger LOG = System.getLogger(S3FileStore.class.getName());

    private final S3Client client;
    private final S3Presigner presigner;
    private final S3Location location;
    private final int partSize;
    private final boolean owned;
    /** Sends the parts of multipart uploads while their writers fill the next part. */
    private final ExecutorService partSenders = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("s3-part-", 0).factory());

    private S3FileStore(S3Client client, S3Presigner presigner, S3Location location, int partSize, boolean owned) {
        this.client = Objects.requireNonNull(client, "client");
        this.presigner = Objects.requireNonNull(presigner, "presigner");
        this.location = Objects.requireNonNull(location, "location");
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("part size " + partSize + " is below S3's minimum " + MIN_PART_SIZE);
        }
        this.partSize = partSize;
        this.owned = owned;
    }

    /**
     * A store on {@code location} through a client and a presigner of {@code connection}, which it closes;
     * checks first that the bucket answers.
     *
     * @throws IllegalStateException naming the location and the endpoint when the bucket cannot be reached
     */
    public static S3FileStore open(S3Connection connection, S3Location location) {
        return open(connection, location, DEFAULT_PART_SIZE);
    }

    /** {@link #open(S3Connection, S3Location)} with another part size (at least 5 MiB). */
    public static S3FileStore open(S3Connection connection, S3Location location, int partSize) {
        S3Client client = connection.client();
        S3Presigner presigner = connection.presigner();
        S3FileStore store;
        try {
            store = new S3FileStore(client, presigner, location, partSize, true);
            client.headBucket(b -> b.bucket(location.bucket()));
        } catch (SdkException | IllegalArgumentException e) {
            client.close();
            presigner.close();
            throw new IllegalStateException(
                    location + " could not be reached at "
                            + connection.endpoint().map(URI::toString).orElse("AWS S3 (" + connection.region() + ")")
                            + ": "
                            + oneLine(e),
                    e);
        }
        return store;
    }

    public S3Location location() {
        return location;
    }

    @Override
    public Upload create(String key) {
        return new PartUpload(objectKey(key));
    }

    @Override
    public Optional<Download> open(String key, long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("range " + offset + "+" + length + " of " + key + " is negative");
        }
        String object = objectKey(key);
        if (length == 0) {
            return head(object).map(found -> empty());
        }
        ResponseInputStream<GetObjectResponse> in;
        try {
            in = client.getObject(b -> {
                b.bucket(location.bucket()).key(object);
                if (offset > 0 || length != Long.MAX_VALUE) {
                    long last = length > Long.MAX_VALUE - offset ? Long.MAX_VALUE - 1 : offset + length - 1;
                    b.range("bytes=" + offset + "-" + (last == Long.MAX_VALUE - 1 ? "" : last));
                }
            });
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            if (e.statusCode() == 416) {
                // The offset is at or past the end: the file is there, and the slice is empty.
                return head(object).map(found -> empty());
            }
            throw unavailable("GET " + object, e);
        } catch (SdkException e) {
            throw unavailable("GET " + object, e);
        }
        Long size = in.response().contentLength();
        if (size == null) {
            // A store that streams without Content-Length: the size this port promises is unknown.
            in.abort();
            throw unavailable("GET " + object, SdkException.create("the answer has no Content-Length", null));
        }
        return Optional.of(Download.of(size, new ObjectBody(in, size)));
    }

    @Override
    public Optional<java.time.Instant> modifiedAt(String key) {
        return head(objectKey(key)).map(HeadObjectResponse::lastModified);
    }

    @Override
    public boolean delete(String key) {
        String object = objectKey(key);
        if (head(object).isEmpty()) {
            return false;
        }
        try {
            client.deleteObject(b -> b.bucket(location.bucket()).key(object));
            return true;
        } catch (SdkException e) {
            throw unavailable("DELETE " + object, e);
        }
    }

    @Override
    public List<Entry> list(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        List<Entry> entries = new ArrayList<>();
        try {
            for (S3Object o : client.listObjectsV2Paginator(
                            b -> b.bucket(location.bucket()).prefix(location.key(prefix)))
                    .contents()) {
                // A key ending in '/' is a folder marker (consoles and file-backed stores make them), not a file.
                if (!o.key().endsWith("/")) {
                    entries.add(new Entry(o.key().substring(location.prefix().length()), o.size()));
                }
            }
        } catch (SdkException e) {
            throw unavailable("LIST " + location.key(prefix), e);
        }
        // S3 lists in UTF-8 byte order; keys are ASCII, so this is the same order, made explicit.
        entries.sort(java.util.Comparator.comparing(Entry::key));
        return entries;
    }

    /** A presigned GET of the object, valid for {@code validity} (at most {@link #MAX_LINK_VALIDITY}). */
    @Override
    public Optional<URI> temporaryLink(String key, Duration validity) {
        if (validity.isNegative() || validity.isZero() || validity.compareTo(MAX_LINK_VALIDITY) > 0) {
            throw new IllegalArgumentException(
                    "link validity " + validity + " must be positive and at most " + MAX_LINK_VALIDITY);
        }
        String object = objectKey(key);
        try {
            return Optional.of(presigner
                    .presignGetObject(p -> p.signatureDuration(validity)
                            .getObjectRequest(g -> g.bucket(location.bucket()).key(object)))
                    .url()
                    .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("presigned link of " + object + " is not a URI", e);
        } catch (SdkException e) {
            throw unavailable("presigning " + object, e);
        }
    }

    /** Closes the client and the presigner when this store opened them. */
    @Override
    public void close() {
        partSenders.shutdown();
        if (owned) {
            client.close();
            presigner.close();
        }
    }

    @Override
    public String toString() {
        return "S3FileStore[" + location + "]";
    }

    /** The object's HEAD answer, empty when there is no such object. */
    private Optional<HeadObjectResponse> head(String object) {
        try {
            return Optional.of(
                    client.headObject(b -> b.bucket(location.bucket()).key(object)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw unavailable("HEAD " + object, e);
        } catch (SdkException e) {
            throw unavailable("HEAD " + object, e);
        }
    }

    private String objectKey(String key) {
        Objects.requireNonNull(key, "key");
        if (!KEY.matcher(key).matches() || key.contains("..")) {
            throw new IllegalArgumentException("file key '" + key + "' is not relative segments of [A-Za-z0-9._-]");
        }
        return location.key(key);
    }

    private ObjectStoreUnavailableException unavailable(String what, SdkException e) {
        return new ObjectStoreUnavailableException(what + " on " + location + ": " + oneLine(e), e);
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("\\s+", " ");
    }

    private static Download empty() {
        return Download.of(0, InputStream.nullInputStream());
    }

    /**
     * An object's GET body, aborted rather than drained when closed early: reading the rest of a large
     * object only to reuse the connection costs more than a new one.
     */
    private static final class ObjectBody extends FilterInputStream {
        private final long size;
        private boolean ended;
        private long read;

        ObjectBody(InputStream body, long size) {
            super(body);
            this.size = size;
            this.ended = size == 0;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? -1 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int off, int len) throws IOException {
            int n = super.read(buffer, off, len);
            count(n);
            return n;
        }

        /**
         * A reader that took every byte of the answer has ended it, even without seeing end-of-stream (a
         * ranged part is read by its length): its connection goes back to the pool rather than aborted.
         */
        private void count(int n) {
            if (n < 0) {
                ended = true;
            } else {
                read += n;
                ended |= read >= size;
            }
        }

        @Override
        public void close() throws IOException {
            if (!ended && in instanceof ResponseInputStream<?> r) {
                r.abort();
            }
            super.close();
        }
    }

    /** An upload sent a part at a time as its buffer fills; see the class comment. */
    private final class PartUpload implements Upload {
        private final String object;
        private final List<CompletedPart> parts = new ArrayList<>();
        private final OutputStream out = new PartStream();
        private byte[] buffer = new byte[Math.min(1 << 16, partSize)];
        private int count;
        private long total;
        private String uploadId;
        private boolean done;
        /** The part being sent in the background, its buffer (reused once sent) and its number. */
        private Future<String> inFlight;

        private byte[] sending;
        private int sendingNumber;

        PartUpload(String object) {
            this.object = object;
        }

        @Override
        public OutputStream stream() {
            return out;
        }

        @Override
        public long commit() throws IOException {
            if (done) {
                throw new IllegalStateException("upload of " + object + " already ended");
            }
            try {
                if (uploadId == null) {
                    byte[] bytes = buffer;
                    int n = count;
                    client.putObject(
                            b -> b.bucket(location.bucket()).key(object).contentLength((long) n), body(bytes, n));
                } else {
                    awaitInFlight();
                    if (count > 0) {
                        parts.add(part(parts.size() + 1, buffer, count));
                    }
                    String id = uploadId;
                    client.completeMultipartUpload(b ->
                            b.bucket(location.bucket()).key(object).uploadId(id).multipartUpload(m -> m.parts(parts)));
                }
            } catch (SdkException e) {
                throw new IOException(unavailable("writing " + object, e));
            }
            done = true;
            buffer = null;
            return total;
        }

        @Override
        public void close() throws IOException {
            if (done) {
                return;
            }
            done = true;
            buffer = null;
            if (inFlight != null) {
                // Wait for the part in flight, so that none lands after the abort; its outcome no longer matters.
                try {
                    inFlight.get();
                } catch (ExecutionException | CancellationException ignored) {
                    // aborted below
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                inFlight = null;
            }
            if (uploadId != null) {
                String id = uploadId;
                try {
                    client.abortMultipartUpload(
                            b -> b.bucket(location.bucket()).key(object).uploadId(id));
                } catch (SdkException e) {
                    // The bucket's lifecycle rule for incomplete uploads removes what this could not.
                    LOG.log(System.Logger.Level.WARNING, "aborting the upload of " + object + " failed", e);
                }
            }
        }

        /**
         * Sends the full buffer in the background and gives the writer the other one, once the part sent
         * before it is in the store (its failure surfaces here, or at the commit).
         */
        private void sendPartInBackground() throws IOException {
            byte[] free = awaitInFlight();
            if (uploadId == null) {
                try {
                    uploadId = client.createMultipartUpload(
                                    b -> b.bucket(location.bucket()).key(object))
                            .uploadId();
                } catch (SdkException e) {
                    throw new IOException(unavailable("starting the upload of " + object, e));
                }
            }
            int number = parts.size() + 1;
            byte[] bytes = buffer;
            int n = count;
            sending = bytes;
            sendingNumber = number;
            inFlight = partSenders.submit(() -> uploadPart(number, bytes, n));
            buffer = free != null ? free : new byte[partSize];
            count = 0;
        }

        /** Waits for the part in flight, records it and returns its buffer for reuse; null when none was. */
        private byte[] awaitInFlight() throws IOException {
            if (inFlight == null) {
                return null;
            }
            Future<String> f = inFlight;
            try {
                String etag = f.get();
                // Cleared only once the part is in: interrupted before, close() still waits for it, so no part
                // lands after the abort.
                inFlight = null;
                parts.add(CompletedPart.builder()
                        .partNumber(sendingNumber)
                        .eTag(etag)
                        .build());
            } catch (ExecutionException e) {
                inFlight = null;
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("upload of " + object + " interrupted");
            }
            byte[] free = sending;
            sending = null;
            return free;
        }

        private CompletedPart part(int number, byte[] bytes, int n) throws IOException {
            return CompletedPart.builder()
                    .partNumber(number)
                    .eTag(uploadPart(number, bytes, n))
                    .build();
        }

        private String uploadPart(int number, byte[] bytes, int n) throws IOException {
            String id = uploadId;
            try {
                return client.uploadPart(
                                b -> b.bucket(location.bucket())
                                        .key(object)
                                        .uploadId(id)
                                        .partNumber(number)
                                        .contentLength((long) n),
                                body(bytes, n))
                        .eTag();
            } catch (SdkException e) {
                throw new IOException(unavailable("writing part " + number + " of " + object, e));
            }
        }

        private static RequestBody body(byte[] bytes, int n) {
            // Read in place (no copy of the part); a retry reads it again from the start.
            return RequestBody.fromContentProvider(
                    () -> new ByteArrayInputStream(bytes, 0, n), n, "application/octet-stream");
        }

        /** The stream the writer fills; closing it (a ZIP does) does not end the upload. */
        private final class PartStream extends OutputStream {
            @Override
            public void write(int b) throws IOException {
                ensureOpen();
                if (count == buffer.length) {
                    room();
                }
                buffer[count++] = (byte) b;
                total++;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                Objects.checkFromIndexSize(off, len, b.length);
                ensureOpen();
                while (len > 0) {
                    if (count == buffer.length) {
                        room();
                    }
                    int n = Math.min(len, buffer.length - count);
                    System.arraycopy(b, off, buffer, count, n);
                    count += n;
                    total += n;
                    off += n;
                    len -= n;
                }
            }

            @Override
            public void close() {}

            private void ensureOpen() {
                if (done) {
                    throw new IllegalStateException("upload of " + object + " already ended");
                }
            }

            /** Grows the buffer up to a part, then sends the full part. */
            private void room() throws IOException {
                if (buffer.length < partSize) {
                    buffer = Arrays.copyOf(buffer, Math.min(partSize, buffer.length * 2));
                } else {
                    sendPartInBackground();
                }
            }
        }
    }
}
