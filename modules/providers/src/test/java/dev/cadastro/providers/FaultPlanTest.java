package dev.cadastro.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

    @Test
    void noneAnswersEveryCallNormally() {
        assertEquals(Optional.empty(), FaultPlan.none().faultFor("11144477735"));
        assertEquals(Optional.empty(), FaultPlan.parse("").faultFor("x"));
        assertEquals(Optional.empty(), FaultPlan.parse("none").faultFor("x"));
    }

    @Test
    void parsesEachFault() {
        assertEquals(Optional.of(new Fault.Down()), FaultPlan.parse("down").faultFor("x"));
        assertEquals(
                Optional.of(new Fault.Slow(Duration.ofSeconds(3))),
                FaultPlan.parse("slow=3s").faultFor("x"));
        assertEquals(
                Optional.of(new Fault.Slow(Duration.ofMillis(250))),
                FaultPlan.parse("slow=250ms").faultFor("x"));
        assertEquals(
                Optional.of(new Fault.Slow(Duration.ofSeconds(2))),
                FaultPlan.parse("slow=PT2S").faultFor("x"));
        assertEquals(
                Optional.of(new Fault.Malformed()), FaultPlan.parse("malformed").faultFor("x"));
        assertEquals(
                Optional.of(new Fault.ExtraFields()),
                FaultPlan.parse("extra-fields").faultFor("x"));
    }

    @Test
    void aDocumentRuleHitsThatDocumentOnly() {
        FaultPlan plan = FaultPlan.parse("down;document=12345678000195");
        assertEquals(Optional.of(new Fault.Down()), plan.faultFor("12345678000195"));
        assertEquals(Optional.empty(), plan.faultFor("11144477735"));
    }

    @Test
    void aDocumentRuleWinsOverAnAlwaysRule() {
        FaultPlan plan = FaultPlan.parse("slow=1s,malformed;document=11144477735");
        assertEquals(Optional.of(new Fault.Malformed()), plan.faultFor("11144477735"));
        assertEquals(Optional.of(new Fault.Slow(Duration.ofSeconds(1))), plan.faultFor("52998224725"));
    }

    @Test
    void aShareHitsExactlyThatShareOfCallsDeterministically() {
        FaultPlan plan = FaultPlan.parse("malformed;share=0.3");
        StringBuilder pattern = new StringBuilder();
        int hits = 0;
        for (int i = 0; i < 100; i++) {
            boolean hit = plan.faultFor("x").isPresent();
            hits += hit ? 1 : 0;
            pattern.append(hit ? 'x' : '.');
        }
        assertEquals(30, hits);
        FaultPlan again = FaultPlan.parse("malformed;share=0.3");
        StringBuilder second = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            second.append(again.faultFor("x").isPresent() ? 'x' : '.');
        }
        assertEquals(pattern.toString(), second.toString());
    }

    @Test
    void changesAtRunTime() {
        FaultPlan plan = FaultPlan.none().always(new Fault.Down());
        assertTrue(plan.faultFor("x").isPresent());
        plan.clear();
        assertEquals(Optional.empty(), plan.faultFor("x"));
    }

    @Test
    void errorsNameTheTokenAndTheRule() {
        assertMessage("fault plan token \"sideways\"", "sideways");
        assertMessage("fault plan token \"slow=fast\"", "slow=fast");
        assertMessage("fault plan token \"share=1.5\": share must be a number above 0 and at most 1", "down;share=1.5");
        assertMessage("fault plan token \"document=123\"", "down;document=123");
        assertMessage("fault plan token \"color=red\"", "down;color=red");
        assertMessage("share and document cannot be combined", "down;share=0.5;document=11144477735");
    }

    private static void assertMessage(String expected, String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultPlan.parse(spec));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
