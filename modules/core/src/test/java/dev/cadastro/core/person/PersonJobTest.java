package dev.cadastro.core.person;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Purpose;
import dev.cadastro.core.document.Cpf;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PersonJobTest {
    private static final Instant T0 = Instant.parse("2026-05-01T12:00:00Z");
    private static final Duration LEASE = Duration.ofSeconds(60);

    private static PersonJob job() {
        return PersonJob.create(
                "pj_1",
                new AccountId(1),
                new Subject.ByCpf(Cpf.withCheckDigits("529982247")),
                Purpose.KYC_CADASTRO,
                Justification.choose(Optional.empty(), Optional.empty(), Purpose.KYC_CADASTRO),
                T0);
    }

    @Test
    void aPendingJobIsClaimedDeliveredOnceAndForgetsItsSubject() {
        PersonJob claimed = job().claim("c1", T0, LEASE);
        assertInstanceOf(PersonJob.State.Processing.class, claimed.state());
        assertFalse(claimed.claimable(T0.plusSeconds(1)), "a running claim is not taken by another read");
        PersonJob delivered = claimed.deliver("c1", T0.plusSeconds(2));
        assertEquals("concluido", delivered.state().wire());
        assertTrue(delivered.subject().isEmpty(), "the CPF is erased once delivered");
        assertFalse(delivered.claimable(T0.plusSeconds(3)));
        assertThrows(IllegalStateException.class, () -> delivered.claim("c2", T0.plusSeconds(3), LEASE));
    }

    @Test
    void aReleasedJobIsPendingAgainAndOnlyItsClaimantMayMoveIt() {
        PersonJob claimed = job().claim("c1", T0, LEASE);
        assertThrows(IllegalStateException.class, () -> claimed.deliver("other", T0));
        assertThrows(IllegalStateException.class, () -> claimed.release("other"));
        PersonJob released = claimed.release("c1");
        assertEquals("pendente", released.state().wire());
        assertTrue(released.subject().isPresent());
        assertTrue(released.claimable(T0));
    }

    @Test
    void aLapsedClaimMayBeTakenOverAndAnUnreadJobExpiresAfter24Hours() {
        PersonJob claimed = job().claim("c1", T0, LEASE);
        assertTrue(claimed.claimable(T0.plus(LEASE)), "the claimant's server died: its lease ran out");
        PersonJob pending = job();
        assertFalse(pending.expired(T0.plus(Duration.ofHours(24)).minusNanos(1)));
        assertTrue(pending.expired(T0.plus(Duration.ofHours(24))));
        assertFalse(pending.claimable(T0.plus(Duration.ofHours(24))));
        PersonJob noData = pending.claim("c", T0, LEASE).noData("c", T0);
        assertFalse(noData.expired(T0.plus(Duration.ofDays(3))), "a finished job is not 'unread'");
    }

    @Test
    void aFinishedJobCannotHoldASubject() {
        PersonJob j = job();
        assertThrows(
                IllegalArgumentException.class,
                () -> new PersonJob(
                        j.id(),
                        j.account(),
                        j.subject(),
                        j.purpose(),
                        j.justification(),
                        new PersonJob.State.Delivered(T0),
                        j.createdAt(),
                        j.expiresAt()));
    }
}
