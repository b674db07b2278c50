package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Principal;
import dev.cadastro.core.internal.ManualClock;
import dev.cadastro.core.ledger.Balance;
import dev.cadastro.core.ledger.CostRules;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.sms.OtpDispatch;
import dev.cadastro.core.sms.OtpLimitException;
import dev.cadastro.core.sms.OtpRequest;
import dev.cadastro.core.sms.OtpSent;
import dev.cadastro.core.sms.OtpService;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * How many times the SMS paths exchange messages with PostgreSQL: the store talks to the server through a
 * proxy that counts the messages PostgreSQL answers with a ReadyForQuery, each answer sent on its own:
 * the Syncs that end pgjdbc's batches of extended-protocol messages, and simple queries, such as the
 * {@code BEGIN} pgjdbc sends ahead of the first batch of a connection out of auto-commit (pipelined with
 * that batch, not waited for) and the {@code COMMIT}. A send's begin is five (the {@code BEGIN}; the
 * cached plans, the phone's lock and the reads in one batch; the ledger's hold; the dispatch; the {@code
 * COMMIT}) and its acceptance one; a check is one; a send the phone's limits refuse is three (the {@code
 * BEGIN}, the batch, the {@code COMMIT}). pgjdbc sends a statement whose answer row it cannot bound only
 * after a Sync for what precedes it: a text column added to the reads' answer would make the batch two
 * exchanges, and this test fail.
 */
class SmsRoundTripsTest {
    private static final Pattern HOST_PORT = Pattern.compile("//(localhost|127\\.0\\.0\\.1):(\\d+)/");

    @Test
    void aSendBeginsInFiveExchangesAcceptsInOneAndTheLimitsRefuseInThree() throws Exception {
        String url = TestDatabase.freshDatabase();
        Matcher m = HOST_PORT.matcher(url);
        assertTrue(m.find(), url);
        try (ExchangeCounter proxy = new ExchangeCounter(Integer.parseInt(m.group(2)))) {
            String proxied =
                    m.replaceFirst("//127.0.0.1:" + proxy.port() + "/") + "&sslmode=disable&gssEncMode=disable";
            ManualClock clock = new ManualClock(Instant.parse("2026-11-25T03:00:00Z"));
            try (Store store =
                    Store.open(Database.builder().url(proxied).poolSize(1).build(), Clock.systemUTC())) {
                OtpStoreTest.Provider provider = new OtpStoreTest.Provider();
                OtpService otp = SmsFlows.service(store, provider, clock);
                Principal p = SmsFlows.principal(store, clock, 100);
                // pgjdbc prepares and describes a statement on the server from its fifth execution on.
                for (int i = 0; i < 8; i++) {
                    var sent = otp.send(p, OtpRequest.parse("1199%07d".formatted(i), 300L, null));
                    otp.verify(p, sent.id(), provider.code(sent.id()));
                }
                // The fewest of three: the pool checks a connection idle for over half a second before
                // lending it, one more exchange, should the machine stall between two borrowings.
                int sends = Integer.MAX_VALUE;
                int checks = Integer.MAX_VALUE;
                for (int i = 0; i < 3; i++) {
                    int before = proxy.exchanges();
                    var sent = otp.send(p, OtpRequest.parse("1198888%04d".formatted(i), 300L, null));
                    sends = Math.min(sends, proxy.exchanges() - before);
                    before = proxy.exchanges();
                    otp.verify(p, sent.id(), provider.code(sent.id()));
                    checks = Math.min(checks, proxy.exchanges() - before);
                }
                assertEquals(6, sends, "exchanges of a send");
                assertEquals(1, checks, "exchanges of a check: the write, which compares");
                // The phone's limits refuse a second code within 30 seconds from the reads' round trip.
                int throttled = Integer.MAX_VALUE;
                for (int i = 0; i < 3; i++) {
                    int before = proxy.exchanges();
                    assertThrows(
                            OtpLimitException.class, () -> otp.send(p, OtpRequest.parse("11988880000", 300L, null)));
                    throttled = Math.min(throttled, proxy.exchanges() - before);
                }
                assertEquals(3, throttled, "exchanges of a throttled send");
            }
        }
    }

    @Test
    void aSendWhoseInsertFailsRollsBackItsHoldAndLeavesTheConnectionUsable() throws Exception {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-25T03:00:00Z"));
        try (Store store = Store.open(
                Database.builder().url(TestDatabase.freshDatabase()).poolSize(1).build(), Clock.systemUTC())) {
            OtpStoreTest.Provider provider = new OtpStoreTest.Provider();
            OtpService otp = SmsFlows.service(store, provider, clock);
            Principal p = SmsFlows.principal(store, clock, 5);
            OtpSent sent = otp.send(p, OtpRequest.parse("11987650000", 300L, null));
            // The lock and the reads pass, the hold is placed, then the insert fails: the dispatch id is
            // taken. The transaction must be rolled back, the hold with it.
            OtpDispatch taken = OtpDispatch.sending(
                    sent.id(), p.accountId(), "(11) 9****-1111", 6, "k1", clock.instant(), Duration.ofSeconds(300));
            assertThrows(
                    StoreException.class,
                    () -> store.otpStore()
                            .begin(
                                    taken,
                                    "another-phone",
                                    new byte[32],
                                    new CostRules(clock).smsCode(p.accountId(), "another-hold"),
                                    "another-request"));
            // The failed statement took its hold with it; the pool's one connection must have come back
            // out of the transaction it left open and aborted, or the next statement would fail (25P02).
            assertEquals(
                    new Balance(CreditKind.SMS_CREDITS, 4, 0),
                    store.ledger().balance(p.accountId(), CreditKind.SMS_CREDITS));
            OtpSent next = otp.send(p, OtpRequest.parse("11987651111", 300L, null));
            assertTrue(otp.verify(p, next.id(), provider.code(next.id())).valid());
        }
    }

    /** A TCP proxy to PostgreSQL on loopback that counts its clients' Sync and simple Query messages. */
    private static final class ExchangeCounter implements AutoCloseable {
        private final ServerSocket listener;
        private final int upstream;
        private final AtomicInteger exchanges = new AtomicInteger();

        ExchangeCounter(int upstream) throws IOException {
            this.upstream = upstream;
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(this::accept);
        }

        int port() {
            return listener.getLocalPort();
        }

        int exchanges() {
            return exchanges.get();
        }

        private void accept() {
            try {
                while (true) {
                    Socket client = listener.accept();
                    Socket server = new Socket(InetAddress.getLoopbackAddress(), upstream);
                    client.setTcpNoDelay(true);
                    server.setTcpNoDelay(true);
                    Thread.ofVirtual().start(() -> clientToServer(client, server));
                    Thread.ofVirtual().start(() -> copy(server, client));
                }
            } catch (IOException closed) {
                // The test is over.
            }
        }

        /** The client's messages, forwarded one at a time: the startup message, then typed messages. */
        private void clientToServer(Socket client, Socket server) {
            try (client;
                    server;
                    DataInputStream in = new DataInputStream(client.getInputStream())) {
                OutputStream out = server.getOutputStream();
                byte[] startup = new byte[in.readInt() - 4];
                in.readFully(startup);
                writeInt(out, startup.length + 4);
                out.write(startup);
                out.flush();
                while (true) {
                    int type = in.readUnsignedByte();
                    int length = in.readInt();
                    byte[] body = new byte[length - 4];
                    in.readFully(body);
                    if (type == 'S' || type == 'Q') {
                        exchanges.incrementAndGet();
                    }
                    out.write(type);
                    writeInt(out, length);
                    out.write(body);
                    out.flush();
                }
            } catch (EOFException | java.net.SocketException closed) {
                // The connection ended.
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private static void copy(Socket from, Socket to) {
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                in.transferTo(out);
            } catch (IOException closed) {
                // The connection ended.
            }
        }

        private static void writeInt(OutputStream out, int v) throws IOException {
            out.write(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}
