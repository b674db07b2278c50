package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.calls.CallFilter;
import dev.cadastro.core.calls.CallTokens;
import dev.cadastro.core.calls.Integration;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Integrations' bearer tokens on the real embedded PostgreSQL: issue, authenticate, rotate, revoke, list. */
class CallTokensTest {
    private final CallTokens tokens = TestDatabase.store().callTokens();

    private static String name() {
        return "crm-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aNewTokenAuthenticatesItsIntegrationAndIsStoredOnlyAsAHash() throws Exception {
        String name = name();
        CallTokens.Issued issued = tokens.create(name);
        assertTrue(issued.token().matches("crt_[A-Za-z0-9_-]{43}"), issued.token());
        assertEquals(Optional.of(issued.integration()), tokens.authenticate(issued.token()));
        assertEquals(Optional.of(issued.integration()), tokens.integration(name));
        byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
                .digest(issued.token().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(
                1,
                CallFixtures.count(
                        "SELECT count(*) FROM call_tokens WHERE id = ? AND token_hash = ? AND prefix = ?",
                        issued.tokenId(),
                        hash,
                        issued.token().substring(0, 8)));
        assertFalse(issued.toString().contains(issued.token()), "the token never reaches a log line");
    }

    @Test
    void refusesWhatIsNotAValidTokenWithoutTellingWhy() {
        CallTokens.Issued issued = tokens.create(name());
        String t = issued.token();
        char last = t.charAt(t.length() - 1);
        String tampered = t.substring(0, t.length() - 1) + (last == 'A' ? 'B' : 'A');
        for (String bad : List.of("", "crt_", tampered, t + "x", "cad_" + t.substring(4), t.toUpperCase())) {
            assertEquals(Optional.empty(), tokens.authenticate(bad), bad);
        }
        assertEquals(Optional.empty(), tokens.authenticate(null));
    }

    @Test
    void rotationRefusesTheOldTokenAtOnceAndTheNewOneWorks() {
        String name = name();
        CallTokens.Issued first = tokens.create(name);
        CallTokens.Issued second = tokens.create(name); // a second valid token, for a migration
        assertEquals(first.integration(), second.integration());
        CallTokens.Issued rotated = tokens.rotate(name);
        assertEquals(Optional.empty(), tokens.authenticate(first.token()));
        assertEquals(Optional.empty(), tokens.authenticate(second.token()));
        assertEquals(Optional.of(first.integration()), tokens.authenticate(rotated.token()));
        List<CallTokens.TokenInfo> listed = tokens.list(Optional.of(name));
        assertEquals(
                List.of(rotated.tokenId(), second.tokenId(), first.tokenId()),
                listed.stream().map(CallTokens.TokenInfo::tokenId).toList());
        assertTrue(listed.get(0).revokedAt().isEmpty());
        assertTrue(listed.get(1).revokedAt().isPresent()
                && listed.get(2).revokedAt().isPresent());
        assertEquals(rotated.token().substring(0, 8), listed.get(0).prefix());
    }

    @Test
    void rotatingAnUnknownIntegrationFailsAndCreatesNothing() {
        String name = name();
        assertThrows(NoSuchElementException.class, () -> tokens.rotate(name));
        assertEquals(Optional.empty(), tokens.integration(name));
    }

    @Test
    void revokeRefusesTheTokenOnceAndTellsWhenThereWasNothingToRevoke() {
        CallTokens.Issued issued = tokens.create(name());
        assertTrue(tokens.revoke(issued.tokenId()));
        assertEquals(Optional.empty(), tokens.authenticate(issued.token()));
        assertFalse(tokens.revoke(issued.tokenId()));
        assertFalse(tokens.revoke(Long.MAX_VALUE));
    }

    @Test
    void aBadIntegrationNameIsRefusedNamingTheRule() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tokens.create("CRM Bad"));
        assertTrue(e.getMessage().contains("lower-case"), e.getMessage());
        assertEquals(Optional.empty(), tokens.integration("CRM Bad"));
    }

    @Test
    void anotherIntegrationsTokenReadsNoneOfTheseCalls() {
        CallTokens.Issued mine = tokens.create(name());
        CallTokens.Issued theirs = tokens.create(name());
        assertNotEquals(mine.integration(), theirs.integration());
        Instant t = Instant.parse("2026-11-20T10:00:00Z");
        TestDatabase.store().calls().ingest(List.of(CallFixtures.ready(mine.integration(), "C1", t)));
        Integration authenticated = tokens.authenticate(theirs.token()).orElseThrow();
        assertTrue(TestDatabase.store()
                .calls()
                .page(authenticated.id(), CallFilter.NONE, Optional.empty(), t.minusSeconds(3600), 50)
                .isEmpty());
        assertTrue(TestDatabase.store().calls().find(authenticated.id(), "C1").isEmpty());
        Integration me = tokens.authenticate(mine.token()).orElseThrow();
        assertEquals(
                1,
                TestDatabase.store()
                        .calls()
                        .page(me.id(), CallFilter.NONE, Optional.empty(), t.minusSeconds(3600), 50)
                        .size());
    }

    @Test
    void listsEveryIntegrationsTokensWhenNoNameIsGiven() {
        CallTokens.Issued a = tokens.create(name());
        CallTokens.Issued b = tokens.create(name());
        List<Long> all = tokens.list(Optional.empty()).stream()
                .map(CallTokens.TokenInfo::tokenId)
                .toList();
        assertTrue(all.containsAll(List.of(a.tokenId(), b.tokenId())));
        assertEquals(List.of(), tokens.list(Optional.of(name())));
    }

    @Test
    void concurrentRotationsLeaveExactlyOneActiveToken() throws Exception {
        for (int round = 0; round < 6; round++) {
            String name = name();
            tokens.create(name);
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(4);
            List<java.util.concurrent.Future<CallTokens.Issued>> rotations = new java.util.ArrayList<>();
            try (java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4)) {
                for (int t = 0; t < 4; t++) {
                    rotations.add(pool.submit(() -> {
                        start.await();
                        return tokens.rotate(name);
                    }));
                }
                for (var r : rotations) {
                    r.get();
                }
            }
            long active = tokens.list(Optional.of(name)).stream()
                    .filter(t -> t.revokedAt().isEmpty())
                    .count();
            assertEquals(1, active, "round " + round);
        }
    }
}
