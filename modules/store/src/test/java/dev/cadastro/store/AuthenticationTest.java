package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.Account;
import dev.cadastro.core.account.AccreditationStatus;
import dev.cadastro.core.account.ApiKey;
import dev.cadastro.core.account.ApiKeyIssuer;
import dev.cadastro.core.account.ApiKeyToken;
import dev.cadastro.core.account.Authenticator;
import dev.cadastro.core.account.IssuedApiKey;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.account.Principal;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.account.Scope;
import dev.cadastro.core.error.CadastroException;
import dev.cadastro.core.error.ErrorCode;
import dev.cadastro.core.error.NotFoundException;
import dev.cadastro.core.internal.ManualClock;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Keys issued, stored as hashes, authenticated and guarded, against the real store. */
class AuthenticationTest {
    private final Store store = TestDatabase.store();
    private final ApiKeyIssuer issuer =
            new ApiKeyIssuer(store.accounts(), store.apiKeys(), Clock.systemUTC(), new SecureRandom());
    private final Authenticator auth = new Authenticator(store.apiKeys());

    private Account account() {
        return store.accounts().create("Empresa Teste Ltda", new Plan("basico", 5_000));
    }

    private static void assertCode(ErrorCode code, Executable call) {
        CadastroException e = assertThrows(CadastroException.class, call);
        assertEquals(code, e.code(), e.getMessage());
    }

    @Test
    void issuedKeyAuthenticatesAndIsStoredOnlyAsAHash() throws SQLException {
        Account a = account();
        IssuedApiKey issued = issuer.issue(a.id(), "producao", EnumSet.of(Scope.EMPRESAS_READ));
        Principal byText = auth.authenticate(issued.secret());
        Principal byToken = auth.authenticate(ApiKeyToken.parse(issued.secret()).orElseThrow());
        assertEquals(a.id(), byText.accountId());
        assertEquals(issued.key().prefix(), byToken.key().prefix());
        assertEquals(Set.of(Scope.EMPRESAS_READ), byText.scopes());

        try (Connection c = store.dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT * FROM api_keys WHERE prefix = ?")) {
            ps.setString(1, issued.key().prefix());
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    String value = rs.getString(i);
                    assertFalse(value != null && value.contains(issued.secret().substring(17)), "column " + i);
                }
                assertArrayEquals(
                        ApiKeyToken.parse(issued.secret()).orElseThrow().hash(), rs.getBytes("secret_hash"));
            }
        }
    }

    @Test
    void malformedUnknownAndWrongSecretKeysAreRefused() {
        // A missing key and the header forms are the edge's: CredentialsTest in modules/http.
        Account a = account();
        IssuedApiKey issued = issuer.issue(a.id(), "k", EnumSet.allOf(Scope.class));
        assertCode(ErrorCode.CHAVE_INVALIDA, () -> auth.authenticate((String) null));
        assertCode(ErrorCode.CHAVE_INVALIDA, () -> auth.authenticate("not-a-key"));
        String other = ApiKeyToken.generate(new SecureRandom()).token();
        assertCode(ErrorCode.CHAVE_INVALIDA, () -> auth.authenticate(other));
        String secret = issued.secret();
        char last = secret.charAt(secret.length() - 1);
        String wrongSecret = secret.substring(0, secret.length() - 1) + (last == 'A' ? 'B' : 'A');
        assertCode(ErrorCode.CHAVE_INVALIDA, () -> auth.authenticate(wrongSecret));
    }

    @Test
    void revocationIsEffectiveOnTheNextRequest() {
        Account a = account();
        IssuedApiKey issued = issuer.issue(a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ));
        auth.authenticate(issued.secret());
        ApiKey revoked =
                store.apiKeys().revoke(issued.key().prefix(), Clock.systemUTC().instant());
        assertTrue(revoked.revoked());
        assertCode(ErrorCode.CHAVE_REVOGADA, () -> auth.authenticate(issued.secret()));
        assertEquals(
                revoked.revokedAt(),
                store.apiKeys()
                        .revoke(issued.key().prefix(), Clock.systemUTC().instant())
                        .revokedAt());
        assertThrows(
                NotFoundException.class,
                () -> store.apiKeys().revoke("aaaaaaaaaaaa", Clock.systemUTC().instant()));
    }

    @Test
    void disabledAccountAnswersApiDesativada() {
        Account a = account();
        IssuedApiKey issued = issuer.issue(a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ));
        store.accounts().setApiEnabled(a.id(), false);
        assertCode(ErrorCode.API_DESATIVADA, () -> auth.authenticate(issued.secret()));
        store.accounts().setApiEnabled(a.id(), true);
        assertEquals(a.id(), auth.authenticate(issued.secret()).accountId());
    }

    @Test
    void guardsAnswerTheSpecificationsForbiddenCodes() {
        Account a = account();
        IssuedApiKey issued = issuer.issue(
                a.id(), "k", EnumSet.of(Scope.EMPRESAS_READ, Scope.PESSOAS_READ, Scope.ENRIQUECIMENTO_READ));
        Principal p = auth.authenticate(issued.secret());
        assertCode(ErrorCode.SEM_ESCOPO, () -> p.require(Scope.CREDITO_READ));
        p.require(Scope.EMPRESAS_READ);
        assertCode(ErrorCode.CREDENCIAMENTO_PENDENTE, p::requireAccreditation);
        assertCode(ErrorCode.PF_NAO_HABILITADA, () -> p.requirePersonLookup(Purpose.KYC_CADASTRO));

        store.accounts().setAccreditation(a.id(), AccreditationStatus.APPROVED);
        store.apiKeys().setPersonLookupReleased(issued.key().prefix(), true);
        Principal released = auth.authenticate(issued.secret());
        released.requireAccreditation();
        assertCode(ErrorCode.FINALIDADE_NAO_CONTRATADA, () -> released.requirePersonLookup(Purpose.KYC_CADASTRO));

        store.accounts().contractPurpose(a.id(), Purpose.KYC_CADASTRO, Set.of("nome", "situacao_cpf"));
        Principal contracted = auth.authenticate(issued.secret());
        assertEquals(Set.of("nome", "situacao_cpf"), contracted.requirePersonLookup(Purpose.KYC_CADASTRO));
        assertCode(ErrorCode.FINALIDADE_NAO_CONTRATADA, () -> contracted.requirePersonLookup(Purpose.ANALISE_CREDITO));

        store.accounts().removePurpose(a.id(), Purpose.KYC_CADASTRO);
        assertCode(
                ErrorCode.FINALIDADE_NAO_CONTRATADA,
                () -> auth.authenticate(issued.secret()).requirePersonLookup(Purpose.KYC_CADASTRO));
    }

    @Test
    void accountSettingsRoundTripThroughTheStore() {
        Account a = account();
        assertEquals(AccreditationStatus.PENDING, a.accreditation());
        assertEquals(Account.DEFAULT_PERSON_BATCH_LIMIT, a.personBatchLimit());
        store.accounts().setPlan(a.id(), new Plan("pro", 50_000));
        store.accounts().setDefaultJustification(a.id(), Optional.of("verificacao cadastral de clientes"));
        store.accounts().setPersonBatchLimit(a.id(), 250);
        store.accounts().contractPurpose(a.id(), Purpose.PREVENCAO_FRAUDE, Set.of("nome"));
        Account read = store.accounts().require(a.id());
        assertEquals(new Plan("pro", 50_000), read.plan());
        assertEquals(Optional.of("verificacao cadastral de clientes"), read.defaultJustification());
        assertEquals(250, read.personBatchLimit());
        assertEquals(Set.of(Purpose.PREVENCAO_FRAUDE), read.purposes().keySet());
        assertTrue(store.accounts().list().stream().anyMatch(x -> x.id().equals(a.id())));
        assertThrows(
                NotFoundException.class,
                () -> store.accounts()
                        .setPlan(new dev.cadastro.core.account.AccountId(Long.MAX_VALUE), new Plan("x", 1)));
        assertThrows(
                NotFoundException.class,
                () -> issuer.issue(new dev.cadastro.core.account.AccountId(Long.MAX_VALUE), "k", Set.of()));
    }

    @Test
    void listShowsPrefixesNewestFirst() {
        Account a = account();
        ManualClock clock = new ManualClock(java.time.Instant.parse("2026-03-10T15:00:00Z"));
        // Seeded, so the prefixes are fixed and the check below can tell time order from prefix order.
        ApiKeyIssuer timed =
                new ApiKeyIssuer(store.accounts(), store.apiKeys(), clock, new java.util.SplittableRandom(20261123));
        List<String> issuedInOrder = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            issuedInOrder.add(timed.issue(a.id(), "k" + i, EnumSet.of(Scope.SMS_OTP))
                    .key()
                    .prefix());
            clock.advance(java.time.Duration.ofMinutes(1));
        }
        List<String> newestFirst = issuedInOrder.reversed();
        assertFalse(
                newestFirst.equals(issuedInOrder.stream().sorted().toList())
                        || newestFirst.equals(
                                issuedInOrder.stream().sorted().toList().reversed()),
                "the seed gives prefixes whose order differs from their time order: " + issuedInOrder);
        List<String> listed =
                store.apiKeys().list(a.id()).stream().map(ApiKey::prefix).toList();
        assertEquals(newestFirst, listed);
    }
}
