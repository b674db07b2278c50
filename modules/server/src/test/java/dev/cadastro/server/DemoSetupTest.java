package dev.cadastro.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Authenticator;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.register.LuceneRegister;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The demo account: created once with credits, an approved accreditation and a key per scope, kept
 * private, reused after.
 */
class DemoSetupTest {

    @Test
    void createsOneKeyPerScopeOnceKeepsThemPrivateAndReusesThem() throws Exception {
        ServerFixture f = ServerFixture.get();
        Path home = Files.createTempDirectory(Path.of("target"), "demo-home-");
        DemoSetup demo = new DemoSetup(home);
        PrintStream out = new PrintStream(new ByteArrayOutputStream());

        Map<Scope, String> first = demo.ensureAccount(f.server.store(), f.clock, new SecureRandom(), out);
        assertEquals(Scope.values().length, first.size());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(demo.keysFile())));
        Authenticator auth = new Authenticator(f.server.store().apiKeys());
        for (Map.Entry<Scope, String> e : first.entrySet()) {
            Principal p = auth.authenticate(e.getValue());
            assertEquals(java.util.Set.of(e.getKey()), p.scopes());
            assertTrue(p.account().accredited(), "enrichment works out of the box");
            assertEquals(
                    DemoSetup.DEMO_CREDITS,
                    f.server
                            .store()
                            .ledger()
                            .balance(p.accountId(), CreditKind.CREDITS)
                            .posted());
        }

        Principal persons = auth.authenticate(first.get(Scope.PESSOAS_READ));
        assertTrue(persons.key().personLookupReleased(), "the pessoas:read key is released for person lookup");
        for (dev.cadastro.core.account.Purpose purpose : dev.cadastro.core.account.Purpose.values()) {
            assertEquals(
                    DemoSetup.DEMO_PURPOSES.get(purpose),
                    persons.requirePersonLookup(purpose),
                    "all four purposes contracted with their fields");
        }
        Principal other = auth.authenticate(first.get(Scope.EMPRESAS_READ));
        assertFalse(other.key().personLookupReleased(), "only that key is released");

        Map<Scope, String> second = demo.ensureAccount(f.server.store(), f.clock, new SecureRandom(), out);
        assertEquals(first, second, "a second run reuses the keys file");

        Files.writeString(demo.keysFile(), "empresas:read cad_aaaaaaaaaaaa_not-a-real-secret\n");
        Map<Scope, String> third = demo.ensureAccount(f.server.store(), f.clock, new SecureRandom(), out);
        assertNotEquals(first.get(Scope.EMPRESAS_READ), third.get(Scope.EMPRESAS_READ));
        assertTrue(Files.readString(demo.keysFile()).contains(third.get(Scope.SMS_OTP)));
    }

    @Test
    void loadsTheSyntheticDebtFilesSoDividaCountsAreRealAndSaysTheyAreSynthetic() throws Exception {
        Path home = Files.createTempDirectory(Path.of("target"), "demo-debt-");
        DemoSetup demo = new DemoSetup(home);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        demo.ensureIndex(20_000, new PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));

        String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("SYNTHETIC PGFN"), text);
        try (LuceneRegister register = LuceneRegister.open(demo.index())) {
            long all = register.published().documents();
            long debtors =
                    register.count(RegisterQuery.builder().divida(true).build()).total();
            long others = register.count(RegisterQuery.builder().divida(false).build())
                    .total();
            assertTrue(debtors > 0, "divida=true finds the synthetic debtors");
            assertTrue(others > debtors, "most establishments have no debt: " + others + " vs " + debtors);
            assertEquals(all, debtors + others);
        }

        ByteArrayOutputStream again = new ByteArrayOutputStream();
        demo.ensureIndex(20_000, new PrintStream(again, true, java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(again.toString(java.nio.charset.StandardCharsets.UTF_8).contains("SYNTHETIC PGFN"), "second run");

        // A home whose index was loaded elsewhere (a link, no dump folder): what the index was loaded
        // with decides, not the missing folder.
        Path linked = Files.createTempDirectory(Path.of("target"), "demo-linked-");
        Files.createSymbolicLink(linked.resolve("index"), demo.index().toAbsolutePath());
        ByteArrayOutputStream elsewhere = new ByteArrayOutputStream();
        new DemoSetup(linked)
                .ensureIndex(20_000, new PrintStream(elsewhere, true, java.nio.charset.StandardCharsets.UTF_8));
        String said = elsewhere.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(said.contains("come from the PGFN files this index was loaded with"), said);
        assertFalse(said.contains("loaded without PGFN"), said);
    }
}
