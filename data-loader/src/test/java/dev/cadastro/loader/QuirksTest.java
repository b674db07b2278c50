package dev.cadastro.loader;

import static dev.cadastro.loader.testing.DumpFixture.estab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.core.document.Cnpj;
import dev.cadastro.core.register.Establishment;
import dev.cadastro.core.register.Establishment.PhoneNumber;
import dev.cadastro.loader.internal.Family;
import dev.cadastro.loader.testing.DumpFixture;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each quirk of the real data, loaded or rejected as the loader promises. */
class QuirksTest {
    @TempDir
    Path tmp;

    private CollectingSink sink;
    private LoadSummary summary;
    private List<String> rejects;

    static final String A = Cnpj.withCheckDigits("112223330001").value();
    static final String C = Cnpj.withCheckDigits("112223330002").value();
    static final String D = Cnpj.withCheckDigits("445556660001").value();
    static final String E = "12ABC34501DE35";
    static final String H = Cnpj.withCheckDigits("998877660001").value();
    static final String SHIFTED = Cnpj.withCheckDigits("556677880001").value();

    @BeforeEach
    void load() throws Exception {
        ByteArrayOutputStream est = new ByteArrayOutputStream();
        String a = estab(
                A,
                21,
                "11",
                22,
                "912345678", // mobile
                23,
                "0000",
                24,
                "33334444", // junk DDD: dropped
                25,
                "069",
                26,
                "32345678", // junk fax DDD: dropped
                27,
                "CONTATO@EMPRESA.COM.BR");
        est.writeBytes(a.getBytes(StandardCharsets.ISO_8859_1));
        est.writeBytes(a.getBytes(StandardCharsets.ISO_8859_1)); // whole line duplicated: line 2
        byte[] c = estab(
                        C,
                        3,
                        "2",
                        4,
                        "BAR \"DO ZE\"; LANCHES \u0096 24H",
                        14,
                        "RUA DAS@FLORES",
                        16,
                        "BLOCO 2\nSALA 3",
                        21,
                        "21",
                        22,
                        "0")
                .getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < c.length; i++) {
            if (c[i] == '@') {
                c[i] = 0; // a NUL byte inside the street name
            }
        }
        est.writeBytes(c); // lines 3-4
        est.writeBytes(estab(D, 6, "0", 10, "2021221", 28, "X", 29, "00000000", 21, "61", 22, "61234567")
                .getBytes(StandardCharsets.ISO_8859_1)); // line 5
        est.writeBytes(estab(E).getBytes(StandardCharsets.ISO_8859_1)); // line 6
        String shifted = estab(SHIFTED);
        est.writeBytes(shifted.replace("\"SP\"", "\"\";\"SP\"").getBytes(StandardCharsets.ISO_8859_1)); // line 7
        est.writeBytes(estab(A.substring(0, 12) + "00", 1, "0003").getBytes(StandardCharsets.ISO_8859_1)); // line 8
        est.writeBytes(estab(H, 10, "41000101").getBytes(StandardCharsets.ISO_8859_1)); // line 9
        String empresas = "\"11222333\";\"EMPRESA A LTDA\";\"2062\";\"49\";\"999999999999\";\"05\";\"\"\n"
                + "\"12ABC345\";\"ALFA NUMERICA SA\";\"2054\";\"10\";\"1000,00\";\"05\";\"\"\n"
                + "\"11222333\";\"EMPRESA A LTDA\";\"2062\";\"49\";\"999999999999\";\"05\";\"\"\n"
                + "\"44555666\";\"D EIRELI\";\"9999\";\"49\";\"12,5\";\"01\";\"\"\n";
        String simples = "\"11222333\";\"S\";\"20180101\";\"0\";\"N\";\"\";\"00000000\"\n"
                + "\"44555666\";\"\";\"00000000\";\"00000000\";\"\";\"00000000\";\"00000000\"\n";
        Path dump = DumpFixture.dump()
                .bytes(Family.ESTABELECIMENTOS, 3, est.toByteArray())
                .rows(Family.EMPRESAS, 7, empresas)
                .rows(Family.SIMPLES, simples)
                .writeTo(tmp.resolve("dump"));
        Path debt = Files.createDirectories(tmp.resolve("pgfn"));
        Files.write(
                debt.resolve("arquivo_lai_SIDA_1_202606.csv"),
                ("CPF_CNPJ;TIPO_PESSOA;TIPO_DEVEDOR;NOME_DEVEDOR;UF_DEVEDOR;UNIDADE_RESPONSAVEL;NUMERO_INSCRICAO;"
                                + "TIPO_SITUACAO_INSCRICAO;SITUACAO_INSCRICAO;RECEITA_PRINCIPAL;DATA_INSCRICAO;"
                                + "INDICADOR_AJUIZADO;VALOR_CONSOLIDADO\n"
                                + "11.222.333/0005-00;Pessoa jurídica;PRINCIPAL;EMPRESA A LTDA;SP;PFN;80;Em cobrança;"
                                + "ATIVA;IRPJ;01/02/2020;NAO;1234.56\n"
                                + "***.456.789-**;Pessoa física;PRINCIPAL;FULANO;SP;PFN;81;Em cobrança;ATIVA;IRPF;"
                                + "01/02/2020;NAO;99.00\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
        sink = new CollectingSink();
        summary = DumpReader.open(DumpFixture.options(dump, tmp).debt(debt).build())
                .readInto(sink);
        rejects = Files.readAllLines(tmp.resolve("rejects.tsv"), StandardCharsets.UTF_8);
    }

    @Test
    void keepsTheFirstOfADuplicatedLineAndRejectsTheSecondWithItsLineNumber() {
        assertNotNull(sink.get(A));
        assertTrue(
                rejects.contains("K3241.K03200Y3.D60808.ESTABELE\t2\tduplicate\t"
                        + estab(
                                        A,
                                        21,
                                        "11",
                                        22,
                                        "912345678",
                                        23,
                                        "0000",
                                        24,
                                        "33334444",
                                        25,
                                        "069",
                                        26,
                                        "32345678",
                                        27,
                                        "CONTATO@EMPRESA.COM.BR")
                                .strip()),
                rejects.toString());
        assertEquals(1L, summary.families().get("Estabelecimentos").rejected().get(RejectReason.DUPLICATE));
    }

    @Test
    void rejectsADuplicatedCompanyLineButKeepsTheCompany() {
        assertEquals(1L, summary.families().get("Empresas").rejected().get(RejectReason.DUPLICATE));
        assertEquals("EMPRESA A LTDA", sink.get(A).company().razaoSocial());
    }

    @Test
    void dropsPhonesWithJunkAreaCodesOrNumbersAndLowerCasesEmail() {
        Establishment a = sink.get(A);
        assertEquals(List.of(new PhoneNumber("11", "912345678", true)), a.telefones());
        assertNull(a.fax());
        assertEquals("contato@empresa.com.br", a.email());
        assertTrue(sink.get(C).telefones().isEmpty(), "the number 0 is a placeholder");
        assertEquals(
                List.of(new PhoneNumber("61", "61234567", true)),
                sink.get(D).telefones(),
                "a legacy 8-digit mobile starting with 6");
        assertEquals(3L, summary.notes().get(Note.PHONE_DROPPED), "phone 2 and fax of A, phone 1 of C");
    }

    @Test
    void keepsQuotesSeparatorsLineFeedsAndWin1252CharactersAndDropsNulBytes() {
        Establishment c = sink.get(C);
        assertEquals("BAR \"DO ZE\"; LANCHES \u2013 24H", c.nomeFantasia());
        assertEquals("RUA DASFLORES", c.logradouro());
        assertEquals("BLOCO 2\nSALA 3", c.complemento());
        assertFalse(c.headOffice());
    }

    @Test
    void turnsEmptyDateVariantsAndInvalidDatesIntoNull() {
        Establishment d = sink.get(D);
        assertNull(d.dataSituacao(), "\"0\"");
        assertNull(d.dataAbertura(), "\"2021221\"");
        assertNull(d.dataSituacaoEspecial(), "\"00000000\"");
        assertNull(sink.get(H).dataAbertura(), "year 4100");
        assertEquals(2L, summary.notes().get(Note.DATE_INVALID), "2021221 and 41000101; 0 and 00000000 mean empty");
        assertEquals(new Establishment.SimplesOption(null, null, null, null, null, null), d.simples());
    }

    @Test
    void treatsThePlaceholderCapitalAsAbsentAndKeepsUnknownCodes() {
        assertNull(sink.get(A).company().capitalSocialCentavos());
        assertEquals(1L, summary.notes().get(Note.CAPITAL_PLACEHOLDER));
        assertEquals(1250L, sink.get(D).company().capitalSocialCentavos());
        assertEquals("9999", sink.get(D).company().naturezaJuridica(), "a code missing from the table stays a code");
    }

    @Test
    void loadsAlphanumericCnpjs() {
        Establishment e = sink.get(E);
        assertNotNull(e);
        assertEquals("ALFA NUMERICA SA", e.company().razaoSocial());
        assertEquals(100_000L, e.company().capitalSocialCentavos());
    }

    @Test
    void keepsAnEstablishmentWhoseCompanyRowIsMissing() {
        Establishment h = sink.get(H);
        assertNotNull(h);
        assertNull(h.company());
        assertNull(h.simples());
        assertEquals(1L, summary.notes().get(Note.COMPANY_MISSING));
    }

    @Test
    void rejectsAShiftedColumnAndABadCheckDigit() {
        assertNull(sink.get(SHIFTED));
        List<String> reasons = new ArrayList<>();
        for (String line : rejects.subList(1, rejects.size())) {
            String[] f = line.split("\t");
            reasons.add(f[1] + ":" + f[2]);
        }
        assertEquals(List.of("3:duplicate", "2:duplicate", "7:column-count", "8:invalid-cnpj"), reasons);
        var est = summary.families().get("Estabelecimentos");
        assertEquals(8, est.read());
        assertEquals(5, est.loaded());
        assertEquals(5, summary.establishments());
    }

    @Test
    void flagsDebtByTheRootOfCompanyRowsOnly() {
        assertTrue(sink.get(A).divida());
        assertTrue(sink.get(C).divida(), "every establishment of the root");
        assertFalse(sink.get(D).divida());
        assertEquals(1L, summary.notes().get(Note.DEBT_NOT_COMPANY));
        assertEquals(1, summary.families().get("PGFN").loaded());
    }

    @Test
    void escapesTheRawRowOfARejectOntoOneLine() {
        assertTrue(rejects.get(0).startsWith("# file\tline\treason\traw"));
        for (String line : rejects) {
            assertEquals(4, line.split("\t", -1).length, line);
        }
    }

    @Test
    void datesOfSimplesUseZerosForNone() {
        var s = sink.get(A).simples();
        assertEquals(Boolean.TRUE, s.simples());
        assertEquals(LocalDate.of(2018, 1, 1), s.dataOpcaoSimples());
        assertNull(s.dataExclusaoSimples());
        assertEquals(Boolean.FALSE, s.mei());
    }
}
