package dev.cadastro.server;

import static dev.cadastro.server.ServerFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.HoldRequest;
import dev.cadastro.core.ledger.IdempotencyKey;
import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.MailingJob;
import dev.cadastro.core.mailing.MailingJobs;
import dev.cadastro.core.work.Claimed;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * Asking for the file of an export that has none, through a real socket: the answer says in plain words,
 * in Portuguese by default and in English on request, that the export is still being processed, or that
 * it failed. The job is held here under this test's own lease, so it stays {@code processando} for as
 * long as the test needs, and is then failed by that lease: no race with the server's workers.
 */
class MailingFileMessagesTest {
    private static final ServerFixture F = ServerFixture.get();

    /**
     * A job of {@code account} that this test holds: created straight in the store (which does not wake
     * the workers, who poll each second) and claimed at once; in the rare case a worker claimed it first,
     * another is made.
     */
    private static Claimed<MailingJob> heldJob(Account account) {
        MailingJobs jobs = F.server.store().mailingJobs();
        for (int attempt = 0; attempt < 20; attempt++) {
            String id = HexFormat.of().formatHex(randomBytes());
            MailingJob job = MailingJob.create(id, account.id(), "ufs=SP", 5, 5, ExportFormat.CSV, F.clock.instant());
            jobs.create(
                    job,
                    new HoldRequest(account.id(), CreditKind.CREDITS, 5, IdempotencyKey.of("held:" + id), "teste"));
            Optional<Claimed<MailingJob>> claimed = jobs.claim("messages-test", F.clock.instant(), Duration.ofHours(1));
            if (claimed.isPresent() && claimed.get().work().id().equals(id)) {
                return claimed.get();
            }
            claimed.ifPresent(other -> jobs.handBack(other.id(), "messages-test"));
        }
        throw new AssertionError("a worker claimed each of 20 jobs before this test could");
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[16];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }

    private static String message(HttpResponse<String> r) {
        assertEquals(404, r.statusCode(), r.body());
        assertEquals("NAO_ENCONTRADO", json(r).at("/erro/code").asText(), r.body());
        return json(r).at("/erro/mensagem").asText();
    }

    @Test
    void theFileOfAnUnfinishedOrFailedExportIsRefusedInWordsAPersonWouldWrite() {
        Account account = F.account(100, 10_000);
        String key = F.key(account, Scope.MAILING_EXPORT, Scope.MAILING_READ);
        Claimed<MailingJob> held = heldJob(account);
        String id = held.work().id();
        String path = "/v1/mailing/" + id + "/arquivo";

        assertEquals(
                "processando",
                json(F.get("/v1/mailing/" + id, "X-API-Key", key))
                        .path("status")
                        .asText());
        assertEquals(
                "a exportação " + id + " ainda está em processamento (status processando); o arquivo fica"
                        + " disponível quando ela for concluída",
                message(F.get(path, "X-API-Key", key)));
        assertEquals(
                "mailing job " + id + " is still being processed (status processando); its file is available once"
                        + " it is done",
                message(F.get(path, "X-API-Key", key, "Accept-Language", "en")));

        assertTrue(F.server
                .store()
                .mailingJobs()
                .fail(
                        held.work().fail(ErrorCode.ERRO_INTERNO, Message.MAILING_FAILED.with(), F.clock.instant()),
                        held.owner()));
        assertEquals(
                "falhou",
                json(F.get("/v1/mailing/" + id, "X-API-Key", key))
                        .path("status")
                        .asText());
        assertEquals(
                "a exportação " + id + " falhou e não gerou arquivo; GET /v1/mailing/" + id + " mostra o motivo",
                message(F.get(path, "X-API-Key", key)));
        assertEquals(
                "mailing job " + id + " failed and made no file; GET /v1/mailing/" + id + " shows why",
                message(F.get(path, "X-API-Key", key, "Accept-Language", "en")));
        assertEquals(100, F.balance(account), "the failed job's hold was released");
    }
}
