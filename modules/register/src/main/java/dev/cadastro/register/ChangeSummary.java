package dev.cadastro.register;

import dev.cadastro.core.register.ChangeType;
import java.time.Duration;
import java.util.Map;

/**
 * What a publication found against the generation that was current: the changed CNPJs ({@code
 * entries}, each once), per type, the CNPJs the new generation lacks, the size of {@code changes.bin}
 * and the time the comparison took.
 */
public record ChangeSummary(long entries, Map<ChangeType, Long> perType, long removed, long bytes, Duration elapsed) {
    public ChangeSummary {
        perType = Map.copyOf(perType);
    }
}
