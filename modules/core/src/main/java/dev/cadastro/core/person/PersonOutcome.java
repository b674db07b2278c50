package dev.cadastro.core.person;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A delivered person lookup.
 *
 * @param dados the dossier cut to the contracted fields, as a JSON-like tree
 * @param fields the top-level fields released (what the audit row lists)
 * @param creditsCharged 15, or 0 on a replay of the same charge
 * @param balanceAfter the posted balance after the charge
 * @param at when the lookup was delivered
 * @param withheld true when this call's charge had already been made by an earlier run of the same
 *     request (a retry that took over after a lost answer): the dossier went out with that run and is
 *     not delivered again, so {@code dados} is empty
 */
public record PersonOutcome(
        Map<String, Object> dados,
        Justification justification,
        List<String> fields,
        long creditsCharged,
        long balanceAfter,
        Instant at,
        boolean withheld) {
    public PersonOutcome {
        Objects.requireNonNull(dados, "dados");
        Objects.requireNonNull(justification, "justification");
        fields = List.copyOf(fields);
        Objects.requireNonNull(at, "at");
    }

    @Override
    public String toString() {
        return "PersonOutcome[fields=" + fields + ", charged=" + creditsCharged + "]";
    }
}
