package dev.cadastro.exports;

import dev.cadastro.core.mailing.ExportFormat;
import dev.cadastro.core.mailing.LeadFileWriter.LeadSink;
import dev.cadastro.core.register.Empresa;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/** Records for the export tests, and the plumbing to write them and open the result. */
final class Leads {
    private Leads() {}

    static Empresa typical() {
        return new Empresa(
                "00623904000173",
                "PADARIA SÃO JOÃO LTDA",
                "Pão Quente",
                "02",
                "ATIVA",
                "0111301",
                "Cultivo de arroz",
                "2062",
                "Sociedade Empresária Limitada",
                "01",
                "MICRO EMPRESA",
                new BigDecimal("1234.5"),
                LocalDate.of(2015, 3, 25),
                "SP",
                "SÃO PAULO",
                "BELA VISTA",
                "01310100",
                "AVENIDA PAULISTA 1000",
                "(11) 91234-5678",
                "contato@padaria.com.br");
    }

    /** Values a careless writer breaks: separators, quotes, line breaks, formulas, accents, emoji, nulls. */
    static List<Empresa> nasty() {
        return List.of(
                typical(),
                new Empresa(
                        "12ABC34501DE35",
                        "=HYPERLINK(\"http://mal.example\";\"clique\")",
                        "Bar \"do Zé\"; filial\r\nCentro",
                        "08",
                        "BAIXADA",
                        "4751201",
                        "Comércio; \"varejista\"",
                        "1015",
                        "Órgão Público\nFederal",
                        "05",
                        "DEMAIS",
                        new BigDecimal("123456789012.34"),
                        LocalDate.of(1900, 1, 1),
                        "RJ",
                        "-10 graus",
                        "+Centro",
                        "0131;0100",
                        "'já com apóstrofo",
                        "=1+1",
                        "@contato 😀"),
                new Empresa(
                        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                        null, null, null, null),
                new Empresa(
                        "00000000000191",
                        "\tTAB NO INÍCIO",
                        "\rCR NO INÍCIO",
                        "04",
                        "INAPTA",
                        "0000000",
                        "",
                        "0000",
                        "a\"b",
                        "00",
                        "NÃO INFORMADO",
                        new BigDecimal("0"),
                        LocalDate.of(2099, 12, 31),
                        "DF",
                        "BRASÍLIA",
                        "Asa Sul; Quadra 1",
                        "70000000",
                        "SQS 101 \"Bloco A\"",
                        "(61) 3333-0000",
                        "x@y.z"),
                new Empresa(
                        "11222333000181",
                        "SEM FANTASIA",
                        null,
                        "02",
                        "ATIVA",
                        "6201501",
                        "Desenvolvimento de programas",
                        "2135",
                        "Empresário Individual",
                        "03",
                        "EMPRESA DE PEQUENO PORTE",
                        new BigDecimal("1.005"),
                        LocalDate.of(2024, 2, 29),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null));
    }

    /** {@code n} distinct records built from the typical one, codes with leading zeros throughout. */
    static List<Empresa> many(int n) {
        List<Empresa> leads = new ArrayList<>(n);
        Empresa t = typical();
        for (int i = 0; i < n; i++) {
            String seq = String.format(Locale.ROOT, "%06d", i);
            leads.add(new Empresa(
                    "00" + seq + "000100",
                    t.razaoSocial() + " " + i,
                    i % 3 == 0 ? null : t.nomeFantasia(),
                    i % 2 == 0 ? "02" : "08",
                    t.situacaoDescricao(),
                    "0" + seq,
                    t.cnaeDescricao(),
                    t.naturezaJuridica(),
                    t.naturezaDescricao(),
                    "0" + (i % 6),
                    t.porteDescricao(),
                    i % 5 == 0 ? null : BigDecimal.valueOf(i, 2),
                    i % 7 == 0 ? null : LocalDate.of(1990, 1, 1).plusDays(i),
                    t.uf(),
                    t.municipio(),
                    t.bairro(),
                    "0" + seq + "0",
                    t.logradouro(),
                    t.telefone(),
                    "c" + i + "@x.com.br"));
        }
        return leads;
    }

    /** The record's components in declaration order, by reflection: independent of the writer's column list. */
    static List<RecordComponent> components() {
        return List.of(Empresa.class.getRecordComponents());
    }

    /** {@code razaoSocial} becomes {@code razao_social}. */
    static String snakeCase(String name) {
        StringBuilder sb = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (Character.isUpperCase(c)) {
                sb.append('_').append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    static Object field(Empresa empresa, RecordComponent component) {
        try {
            return component.getAccessor().invoke(empresa);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the records with the standard writer; returns the ZIP's bytes. */
    static byte[] export(ExportFormat format, String entryName, List<Empresa> leads) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LeadSink sink = ZipLeadFileWriter.standard().open(format, entryName, out)) {
            for (Empresa e : leads) {
                sink.accept(e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** One entry of a ZIP: its name and bytes. */
    record Entry(String name, byte[] bytes) {}

    static List<Entry> entries(byte[] zip) {
        List<Entry> entries = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                entries.add(new Entry(e.getName(), in.readAllBytes()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    /** The bytes of the single entry, failing when there is not exactly one. */
    static byte[] onlyEntry(byte[] zip) {
        List<Entry> entries = entries(zip);
        if (entries.size() != 1) {
            throw new AssertionError("expected one entry, got " + entries.size());
        }
        return entries.getFirst().bytes();
    }
}
