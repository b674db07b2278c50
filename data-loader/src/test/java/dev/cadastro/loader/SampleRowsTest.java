package dev.cadastro.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Establishment.Company;
import dev.cadastro.core.register.Establishment.SimplesOption;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.testing.DumpFixture;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real sample rows (SERPRO, Open Knowledge Brasil), byte-exact from the dump, load exactly as written. */
class SampleRowsTest {
    @TempDir
    Path tmp;

    private LoadSummary load(CollectingSink sink) throws Exception {
        Path dump = DumpFixture.dump()
                .bytes(Family.EMPRESAS, 0, DumpFixture.resource("/receita/sample/Empresas0"))
                .bytes(Family.EMPRESAS, 1, DumpFixture.resource("/receita/sample/Empresas1"))
                .bytes(Family.ESTABELECIMENTOS, 0, DumpFixture.resource("/receita/sample/Estabelecimentos0"))
                .bytes(Family.SIMPLES, 0, DumpFixture.resource("/receita/sample/Simples"))
                .bytes(Family.SOCIOS, 0, DumpFixture.resource("/receita/sample/Socios0"))
                .writeTo(tmp.resolve("dump"));
        return DumpReader.open(DumpFixture.options(dump, tmp).build()).readInto(sink);
    }

    @Test
    void loadsTheSerproBranchWithEveryFieldAsTheSourceSays() throws Exception {
        CollectingSink sink = new CollectingSink();
        LoadSummary summary = load(sink);

        Establishment e = sink.get("33683111000280");
        assertNotNull(e, "SERPRO's Brasilia branch 33.683.111/0002-80");
        assertFalse(e.headOffice());
        assertEquals("REGIONAL BRASILIA-DF", e.nomeFantasia());
        assertEquals("02", e.situacaoCadastral());
        assertEquals(LocalDate.of(2004, 5, 22), e.dataSituacao());
        assertEquals("00", e.motivoSituacao());
        assertNull(e.cidadeExterior());
        assertNull(e.pais());
        assertEquals(LocalDate.of(1967, 6, 30), e.dataAbertura());
        assertEquals("6204000", e.cnaePrincipal());
        assertEquals(List.of("6201501", "6202300", "6203100", "6209100", "6311900"), e.cnaesSecundarios());
        assertEquals("AVENIDA", e.tipoLogradouro());
        assertEquals("L2 SGAN", e.logradouro());
        assertEquals("601", e.numero());
        assertEquals("MODULO G", e.complemento());
        assertEquals("ASA NORTE", e.bairro());
        assertEquals("70836900", e.cep());
        assertEquals("DF", e.uf());
        assertEquals("9701", e.municipio());
        assertEquals(List.of(), e.telefones());
        assertNull(e.fax());
        assertNull(e.email());
        assertNull(e.situacaoEspecial());
        assertNull(e.dataSituacaoEspecial());
        assertFalse(e.divida());

        assertEquals(
                new Company(
                        "SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)",
                        "2011",
                        "16",
                        106_100_482_923L,
                        "05",
                        null),
                e.company());
        assertEquals(
                new SimplesOption(true, LocalDate.of(2014, 1, 1), null, false, null, null),
                e.simples(),
                "Simples S since 2014-01-01, exclusion 00000000 = none, MEI N");
        assertEquals(1, summary.establishments());
        assertEquals(2, summary.families().get("Empresas").loaded());
        assertEquals(0, summary.rejectedTotal());
        assertEquals(1L, summary.notes().get(Note.BLANK_LINE), "the sample's trailing empty line is skipped");
    }

    @Test
    void readsTheLookupTablesOfTheDumpWithTheirAccents() throws Exception {
        Path dump = DumpFixture.dump().writeTo(tmp.resolve("dump"));
        var lookups = DumpReader.open(DumpFixture.options(dump, tmp).build()).lookups();
        assertEquals(1359, lookups.cnaes().size());
        assertEquals("Sociedade Empresária Limitada", lookups.naturezas().get("2062"));
        assertEquals("BRASILIA", lookups.municipios().get("9701"));
        assertEquals("5300108", lookups.municipiosIbge().get("9701"));
        assertEquals("DF", lookups.municipiosUf().get("9701"));
        assertTrue(lookups.motivos().containsKey("00"));
        assertFalse(lookups.motivos().containsKey("32"), "motivo 32 is used in data but missing from the table");
    }
}
