package dev.cadastro.server.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Empresa;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.RegisterQuery;
import dev.cadastro.loader.DumpReader;
import dev.cadastro.loader.LoadOptions;
import dev.cadastro.loader.StructuralFaultException;
import dev.cadastro.loader.generate.DumpGenerator;
import dev.cadastro.loader.generate.GeneratedDump;
import dev.cadastro.loader.generate.GeneratorOptions;
import dev.cadastro.loader.testing.DumpFixture;
import dev.cadastro.register.BuildOptions;
import dev.cadastro.register.LuceneRegister;
import dev.cadastro.server.DumpLoader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generate, load through the real register writer, and look every establishment up again. */
class LoadAndPublishTest {
    @TempDir
    Path tmp;

    private static BuildOptions build() {
        return BuildOptions.builder().ramBufferMb(64).indexingThreads(2).build();
    }

    @Test
    void findsEveryGeneratedEstablishmentByItsCnpjWithTheSameFields() {
        Map<String, Establishment> expected = new ConcurrentHashMap<>();
        GeneratedDump dump = DumpGenerator.generate(
                tmp.resolve("dump"),
                GeneratorOptions.builder(20_000).seed(11).quirkRate(0.02).build(),
                e -> expected.put(e.cnpj().value(), e));
        LoadOptions options =
                DumpFixture.options(dump.dir(), tmp).indexThreads(2).build();
        DumpLoader.Result result = DumpLoader.load(options, tmp.resolve("index"), build());
        assertEquals(dump.establishments(), result.published().documents());

        try (LuceneRegister register = LuceneRegister.open(tmp.resolve("index"))) {
            var lookups = DumpReader.open(options).lookups();
            for (Establishment e : expected.values()) {
                Empresa got = register.lookup(e.cnpj()).orElseThrow(() -> new AssertionError("missing " + e.cnpj()));
                assertEquals(e.cnpj().value(), got.cnpj());
                var c = e.company();
                assertEquals(
                        c == null ? null : c.razaoSocial(),
                        got.razaoSocial(),
                        e.cnpj().value());
                assertEquals(e.nomeFantasia(), got.nomeFantasia());
                assertEquals(e.situacaoCadastral(), got.situacaoCadastral());
                assertEquals(e.cnaePrincipal(), got.cnae());
                assertEquals(c == null ? null : c.naturezaJuridica(), got.naturezaJuridica());
                assertEquals(c == null ? null : c.porte(), got.porte());
                Long capital = c == null ? null : c.capitalSocialCentavos();
                assertEquals(capital == null ? null : BigDecimal.valueOf(capital, 2), got.capitalSocial());
                assertEquals(e.dataAbertura(), got.dataAbertura());
                assertEquals(e.uf(), got.uf());
                assertEquals(lookups.municipios().getOrDefault(e.municipio(), e.municipio()), got.municipio());
                assertEquals(e.bairro(), got.bairro());
                assertEquals(e.cep(), got.cep());
                assertEquals(
                        e.telefones().isEmpty() ? null : e.telefones().get(0).formatted(), got.telefone());
                assertEquals(e.email(), got.email());
            }
            long sp =
                    expected.values().stream().filter(e -> "SP".equals(e.uf())).count();
            assertEquals(
                    sp,
                    register.count(RegisterQuery.builder().ufs("SP").build()).total());
        }
    }

    @Test
    void publishesNothingWhenTheDumpHasAStructuralFault() throws Exception {
        GeneratedDump first = DumpGenerator.generate(
                tmp.resolve("a"), GeneratorOptions.builder(2_000).build());
        Path index = tmp.resolve("index");
        DumpLoader.load(DumpFixture.options(first.dir(), tmp).build(), index, build());
        GeneratedDump second = DumpGenerator.generate(
                tmp.resolve("b"), GeneratorOptions.builder(3_000).seed(5).build());
        Files.delete(second.dir().resolve("Estabelecimentos9.zip"));

        assertThrows(
                StructuralFaultException.class,
                () -> DumpLoader.load(DumpFixture.options(second.dir(), tmp).build(), index, build()));
        try (LuceneRegister register = LuceneRegister.open(index)) {
            assertEquals(first.establishments(), register.published().documents());
        }
    }

    @Test
    void abandonsTheBuildWhenAZipFailsItsCrcHalfwayThroughTheRead() throws Exception {
        GeneratedDump first = DumpGenerator.generate(
                tmp.resolve("a"), GeneratorOptions.builder(2_000).build());
        Path index = tmp.resolve("index");
        DumpLoader.load(DumpFixture.options(first.dir(), tmp).build(), index, build());
        GeneratedDump second = DumpGenerator.generate(
                tmp.resolve("b"), GeneratorOptions.builder(3_000).seed(5).build());
        // Socios are read last, after every establishment went to the index: the CRC fault still stops the publish.
        Path socios = second.dir().resolve("Socios9.zip");
        byte[] good = Files.readAllBytes(second.dir().resolve("Socios8.zip"));
        Files.delete(socios);
        DumpFixture.zip(socios, "K3241.K03200Y9.D60808.SOCIOCSV", new byte[] {'"', '1', '"', '\n'});
        byte[] bytes = Files.readAllBytes(socios);
        corruptStoredCrc(bytes);
        Files.write(socios, bytes);
        assertTrue(good.length > 0);

        var e = assertThrows(
                StructuralFaultException.class,
                () -> DumpLoader.load(DumpFixture.options(second.dir(), tmp).build(), index, build()));
        assertTrue(e.getMessage().contains("Socios9.zip fails its CRC check"), e.getMessage());
        try (LuceneRegister register = LuceneRegister.open(index)) {
            assertEquals(first.establishments(), register.published().documents());
        }
        try (var dirs = Files.list(index)) {
            assertFalse(dirs.anyMatch(p -> p.getFileName().toString().startsWith("staging")), "staging removed");
        }
    }

    /** Flips the CRC-32 recorded in the central directory of a one-entry ZIP. */
    static void corruptStoredCrc(byte[] zip) {
        for (int i = zip.length - 22; i >= 0; i--) {
            if (zip[i] == 0x50 && zip[i + 1] == 0x4b && zip[i + 2] == 0x01 && zip[i + 3] == 0x02) {
                zip[i + 16] ^= 0x5A; // central directory header: CRC-32 at offset 16
                return;
            }
        }
        throw new IllegalStateException("no central directory");
    }
}
