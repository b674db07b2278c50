package dev.cadastro.register;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.CnpjRoot;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Lookups;
import dev.cadastro.core.register.Partner;
import dev.cadastro.core.register.Partner.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The partner structure written with a generation and read back through {@link LuceneRegister#partners}. */
class PartnerIndexTest {
    @TempDir
    Path tmp;

    private static Lookups lookups(Map<String, String> qualificacoes) {
        Lookups l = SyntheticRegister.lookups();
        return new Lookups(
                l.cnaes(),
                l.municipios(),
                l.naturezas(),
                l.motivos(),
                l.paises(),
                qualificacoes,
                l.municipiosIbge(),
                l.municipiosUf());
    }

    private static Partner person(String name, String qualification) {
        return new Partner(
                Kind.PERSON,
                name,
                "***123456**",
                qualification,
                null,
                LocalDate.of(2020, 1, 2),
                null,
                null,
                null,
                null,
                null,
                4);
    }

    @Test
    void returnsARootsRowsInTheOrderTheyWereAddedAcrossCallsAndSplitRuns() throws Exception {
        Path root = tmp.resolve("index");
        Lookups lookups = lookups(Map.of("49", "Sócio-Administrador", "22", "Sócio"));
        List<Partner> many = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            many.add(person("SOCIO " + i, i % 2 == 0 ? "49" : "22"));
        }
        CnpjRoot big = new CnpjRoot("12345678");
        CnpjRoot other = new CnpjRoot("AB345678");
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, lookups, BuildOptions.defaults())) {
            SyntheticRegister g = new SyntheticRegister(3);
            for (int i = 0; i < 100; i++) {
                Establishment e = g.next();
                b.add(e);
            }
            b.addPartners(big, many.subList(0, 2_000));
            b.addPartners(other, List.of(person("OUTRO", "99")));
            b.addPartners(big, many.subList(2_000, 2_500));
            assertEquals(2_501, b.partnersAdded());
            b.publish("test");
        }
        try (LuceneRegister register = LuceneRegister.open(root)) {
            List<Partner> got = register.partners(big);
            assertEquals(2_500, got.size());
            for (int i = 0; i < got.size(); i++) {
                Partner p = got.get(i);
                assertEquals("SOCIO " + i, p.name());
                assertEquals(i % 2 == 0 ? "Sócio-Administrador" : "Sócio", p.qualification());
            }
            Partner outro = register.partners(other).get(0);
            assertEquals("99", outro.qualificationCode(), "a code missing from the table is kept as a code");
            assertEquals(null, outro.qualification());
            assertEquals(List.of(), register.partners(new CnpjRoot("00000000")));
        }
    }

    @Test
    void anAbandonedBuildLeavesNoPartnersAndThePublishedOnesServing() throws Exception {
        Path root = tmp.resolve("index");
        Lookups lookups = lookups(Map.of("49", "Sócio-Administrador"));
        CnpjRoot r = new CnpjRoot("12345678");
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, lookups, BuildOptions.defaults())) {
            b.add(new SyntheticRegister(4).next());
            b.addPartners(r, List.of(person("PUBLICADO", "49")));
            b.publish("first");
        }
        Path staging;
        try (RegisterIndexBuilder b = RegisterIndexBuilder.create(root, lookups, BuildOptions.defaults())) {
            b.add(new SyntheticRegister(5).next());
            b.addPartners(r, List.of(person("ABANDONADO", "49")));
            staging = b.stagingDirectory();
            assertTrue(Files.isDirectory(staging.resolve("partners")));
        }
        assertTrue(Files.notExists(staging));
        try (LuceneRegister register = LuceneRegister.open(root)) {
            assertEquals(
                    List.of("PUBLICADO"),
                    register.partners(r).stream().map(Partner::name).toList());
        }
    }
}
