package dev.cadastro.http;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.idempotency.ClientKey;
import dev.cadastro.core.idempotency.IdempotentCalls;
import dev.cadastro.core.idempotency.RequestFingerprint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The HTTP side of {@link IdempotentCalls}: an operation that accepts an {@value #HEADER} header runs
 * through {@link #run}, which answers a retry of the same request with the first answer, byte for
 * byte (status, its own header fields, body), marked {@value #REPLAYED_HEADER}{@code : true}. Header
 * fields the caller adds after {@code run} (rate limits, request id) are the current request's.
 */
public final class IdempotentResponses {
    /** The request header carrying the client's key (IETF draft "The Idempotency-Key HTTP Header Field"). */
    public static final String HEADER = "Idempotency-Key";

    /** Set on an answer that replays the first answer of its key. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private static final int FORMAT = 1;

    private final IdempotentCalls calls;

    public IdempotentResponses(IdempotentCalls calls) {
        this.calls = Objects.requireNonNull(calls, "calls");
    }

    /**
     * Runs the operation once per key and request. Without the header it simply runs, with a reference
     * unique to this request ({@code r.<request id>}).
     *
     * @param operation takes the reference to charge under
     */
    public Response run(
            Request request, AccountId account, RequestFingerprint fingerprint, Function<String, Response> operation) {
        String sent = request.headers().first(HEADER).orElse(null);
        if (sent == null) {
            return operation.apply("r." + request.requestId());
        }
        ClientKey key = ClientKey.parse(HEADER, sent);
        return switch (calls.run(account, key, fingerprint, HEADER, operation, IdempotentResponses::encode)) {
            case IdempotentCalls.Outcome.Fresh<Response> fresh -> fresh.value();
            case IdempotentCalls.Outcome.Replayed<Response> replayed ->
                decode(replayed.answer()).withHeader(REPLAYED_HEADER, "true");
        };
    }

    /**
     * Like {@link #run(Request, AccountId, RequestFingerprint, Function)}, but what is stored for replays
     * is {@code forReplay} of the fresh answer: an operation whose answer carries personal data stores a
     * receipt without it, and a retry answers that receipt.
     */
    public Response run(
            Request request,
            AccountId account,
            RequestFingerprint fingerprint,
            Function<String, Response> operation,
            Function<Response, Response> forReplay) {
        String sent = request.headers().first(HEADER).orElse(null);
        if (sent == null) {
            return operation.apply("r." + request.requestId());
        }
        ClientKey key = ClientKey.parse(HEADER, sent);
        return switch (calls.run(
                account, key, fingerprint, HEADER, operation, response -> encode(forReplay.apply(response)))) {
            case IdempotentCalls.Outcome.Fresh<Response> fresh -> fresh.value();
            case IdempotentCalls.Outcome.Replayed<Response> replayed ->
                decode(replayed.answer()).withHeader(REPLAYED_HEADER, "true");
        };
    }

    static byte[] encode(Response response) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(response.body().length + 128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeShort(response.status());
            List<String[]> lines = new ArrayList<>();
            response.headers().forEach((name, value) -> lines.add(new String[] {name, value}));
            out.writeShort(lines.size());
            for (String[] line : lines) {
                out.writeUTF(line[0]);
                out.writeUTF(line[1]);
            }
            out.writeInt(response.body().length);
            out.write(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Response decode(byte[] answer) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(answer))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalStateException("stored answer of format " + format + ", this build reads " + FORMAT);
            }
            int status = in.readUnsignedShort();
            int lines = in.readUnsignedShort();
            Headers.Builder headers = Headers.builder();
            for (int i = 0; i < lines; i++) {
                headers.add(in.readUTF(), in.readUTF());
            }
            byte[] body = in.readNBytes(in.readInt());
            return new Response(status, headers.build(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
