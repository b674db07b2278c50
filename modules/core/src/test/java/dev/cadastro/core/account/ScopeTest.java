package dev.cadastro.core.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScopeTest {

    @Test
    void wireNamesAreTheSpecificationsSeven() {
        assertEquals(
                List.of(
                        "empresas:read",
                        "mailing:read",
                        "mailing:export",
                        "enriquecimento:read",
                        "pessoas:read",
                        "credito:read",
                        "sms:otp"),
                Arrays.stream(Scope.values()).map(Scope::wire).toList());
        for (Scope s : Scope.values()) {
            assertEquals(s, Scope.parse(s.wire()));
        }
    }

    @Test
    void unknownScopeIsRefusedListingTheAcceptedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Scope.parse("empresas:write"));
        assertTrue(e.getMessage().contains("'empresas:write'") && e.getMessage().contains("sms:otp"), e.getMessage());
    }
}
