package dev.cadastro.providers.calls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cadastro.core.calls.CallRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class JsonlCallFileProperties {

    /**
     * Any moment to the microsecond, written as ISO 8601 with any offset, or with none in Brasília time
     * (Java's own {@code toString}, which drops zero seconds and trailing zeros of the fraction), reads
     * back as the same instant.
     */
    @Property(tries = 300)
    void aTimeWrittenWithOrWithoutAnOffsetReadsBackToTheMicrosecond(
            @ForAll @LongRange(min = 946_684_800_000_000L, max = 4_102_444_800_000_000L) long micros,
            @ForAll @IntRange(min = -48, max = 56) int quarterHours,
            @ForAll boolean withOffset)
            throws Exception {
        Instant moment =
                Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
        String text = withOffset
                ? OffsetDateTime.ofInstant(moment, ZoneOffset.ofTotalSeconds(quarterHours * 900))
                        .toString()
                : LocalDateTime.ofInstant(moment, ZoneOffset.ofHours(-3)).toString();
        String line = "{\"id\":\"p\",\"agente\":\"a.b\",\"fila\":\"f\",\"datahistorico\":\"" + text
                + "\",\"horario_inicio\":\"" + text + "\",\"duracao_gravacao\":0,\"ocorrencia_descricao\":\"d\"}";
        Path dir = Files.createTempDirectory("jsonl-prop");
        try {
            Path file = Files.writeString(dir.resolve("c.jsonl"), line);
            CallRecord c = JsonlCallFile.read(file, 1).calls().get(0);
            assertEquals(moment, c.classifiedAt(), text);
            assertEquals(moment, c.startedAt(), text);
        } finally {
            Files.deleteIfExists(dir.resolve("c.jsonl"));
            Files.delete(dir);
        }
    }
}
