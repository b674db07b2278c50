package dev.cadastro.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.account.AccountId;
import dev.cadastro.core.account.Plan;
import dev.cadastro.core.ledger.CreditKind;
import dev.cadastro.core.ledger.IdempotencyKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmbeddedRestartTest {

    @Test
    void restartOnTheSameFolderKeepsAccountsAndBalances() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "pg-restart-");
        AccountId id;
        try (Store first = Store.open(
                Database.builder().embedded(dir).durableCommits(false).build(), Clock.systemUTC())) {
            id = first.accounts().create("persistente", new Plan("p", 10)).id();
            first.ledger().topUp(id, CreditKind.CREDITS, 42, IdempotencyKey.of("t"), "carga");
        }
        try (Store second = Store.open(Database.embedded(dir), Clock.systemUTC())) {
            assertEquals(List.of(), second.migrationsApplied());
            assertEquals("persistente", second.accounts().require(id).name());
            assertEquals(42, second.ledger().balance(id, CreditKind.CREDITS).posted());
        }
    }
}
