package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.calls.CallCursors;
import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallPosition;
import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.document.Cpf;
import dev.cadastro.core.document.Parsed;
import dev.cadastro.core.keys.Keyring;
import dev.cadastro.core.register.CountResult;
import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.core.register.SearchResult;
import dev.cadastro.core.sms.OtpCode;
import dev.cadastro.core.sms.OtpDispatch;
import dev.cadastro.core.sms.OtpStatus;
import dev.cadastro.register.LuceneRegister;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The snippets of docs/embedding.md ("The core alone", "The register alone"), word for word between the
 * markers, run against real values and the fixture's real index.
 */
class EmbeddingSnippetsTest {

    @Test
    void theCoreAloneValidatesEncodesCursorsAndRunsTheOtpStateMachine() {
        String input = "11.222.333/0001-81";
        // --8<-- [start:documents]
        String shown = switch (Cnpj.parse(input)) {
            case Parsed.Valid<Cnpj> v -> v.value().formatted();
            case Parsed.Invalid<Cnpj> i -> "refused: " + i.violation().message();
        };
        boolean cpfOk = Cpf.isValid("529.982.247-25"); // allocation-free, for hot paths
        // --8<-- [end:documents]
        assertEquals("11.222.333/0001-81", shown);
        assertTrue(cpfOk);

        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        // --8<-- [start:cursors]
        Keyring keys = new Keyring(List.of(new Keyring.Key("k1", secret)), "k1");
        CallCursors cursors = new CallCursors(keys);
        CallPosition last = new CallPosition(Instant.parse("2026-11-20T15:00:00Z"), "C-42");
        String cursor = cursors.encode(7L, CallFilter.NONE, last); // opaque, signed, URL-safe
        CallPosition resumed = cursors.decode(7L, CallFilter.NONE, cursor); // throws on tampering,
        // on another integration (not 7) and on other filters
        // --8<-- [end:cursors]
        assertEquals(last, resumed);

        Instant now = Instant.parse("2026-11-20T15:00:00Z");
        // --8<-- [start:otp]
        OtpCode code = OtpCode.generate(new SecureRandom(), OtpCode.DEFAULT_DIGITS);
        OtpDispatch sent = OtpDispatch.sending(
                        "envio-1", new AccountId(1), "(11) 9****-4321", code.digits(), "k1", now, Duration.ofMinutes(5))
                .accepted(); // the SMS provider took the message
        OtpDispatch.Checked wrong = sent.check(false, now.plusSeconds(30)); // a wrong code counts an attempt
        OtpDispatch.Checked right = wrong.after().check(true, now.plusSeconds(40));
        OtpStatus after = right.after().status(now.plusSeconds(41)); // VERIFICADO; a code expires at 5 min
        // --8<-- [end:otp]
        assertFalse(wrong.valid());
        assertTrue(right.valid());
        assertEquals(OtpStatus.VERIFICADO, after);
        assertEquals(OtpStatus.EXPIRADO, sent.status(now.plus(Duration.ofMinutes(5))));
    }

    @Test
    void theRegisterAloneSearchesCountsAndLooksUp() {
        Path indexDir = ServerFixture.get().index;
        // --8<-- [start:register]
        try (LuceneRegister register = LuceneRegister.open(indexDir)) { // the folder `./cadastro load` wrote
            RegisterQuery active =
                    RegisterQuery.builder().situacaoCadastral("02").limite(20).build();
            SearchResult page = register.search(active); // up to 20 companies, and the total
            CountResult count = register.count(active); // exact, or estimated with an interval
            Optional<Empresa> one = register.lookup(Cnpj.of(page.dados().get(0).cnpj()));
            // --8<-- [end:register]
            assertEquals(20, page.dados().size());
            assertEquals(page.total(), count.total());
            assertTrue(one.isPresent());
        }
    }
}
