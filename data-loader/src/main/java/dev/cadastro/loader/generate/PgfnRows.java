package dev.cadastro.loader.generate;

import dev.cadastro.core.document.Cnpj;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes synthetic PGFN active-debt rows ("Dados abertos da Dívida Ativa", the non-social-security
 * system SIDA) in the layout the loader reads: a header row, {@code ;} between fields, no quotes,
 * ISO-8859-1, the debtor's formatted CNPJ and "Pessoa jurídica"; now and then a co-responsible natural
 * person (masked CPF, "Pessoa física"), as the real files list them. Each part of the generator writes
 * its rows to a file of its own; {@link #writeZip} puts them, in part order, into {@code
 * Dados_abertos_Nao_Previdenciario.zip} as {@code arquivo_lai_SIDA_<n>_<yyyymm>.csv}.
 */
final class PgfnRows {
    static final String ZIP_NAME = "Dados_abertos_Nao_Previdenciario.zip";
    static final String HEADER = "CPF_CNPJ;TIPO_PESSOA;TIPO_DEVEDOR;NOME_DEVEDOR;UF_DEVEDOR;UNIDADE_RESPONSAVEL;"
            + "NUMERO_INSCRICAO;TIPO_SITUACAO_INSCRICAO;SITUACAO_INSCRICAO;RECEITA_PRINCIPAL;DATA_INSCRICAO;"
            + "INDICADOR_AJUIZADO;VALOR_CONSOLIDADO\n";

    private static final String[] RECEITAS = {
        "COFINS", "IRPJ", "CSLL", "PIS", "SIMPLES NACIONAL", "IPI", "IRRF", "MULTA ADMINISTRATIVA"
    };
    private static final double[] RECEITA_W =
            DumpGenerator.Model.cumulative(new double[] {24, 18, 12, 10, 22, 4, 8, 2});
    private static final String[] SITUACOES = {
        "Em cobrança", "Benefício Fiscal", "Garantia", "Suspenso por decisão judicial"
    };
    private static final double[] SITUACAO_W = DumpGenerator.Model.cumulative(new double[] {70, 20, 5, 5});
    private static final String[] PESSOAS = {
        "MARIA DA SILVA",
        "JOSE DOS SANTOS",
        "ANA OLIVEIRA",
        "JOAO SOUZA",
        "ANTONIO PEREIRA",
        "FRANCISCA LIMA",
        "CARLOS FERREIRA",
        "PAULO RODRIGUES"
    };

    private final SplittableRandom rng;
    private final OutputStream out;
    private final int firstDay;
    private final int lastDay;
    private final StringBuilder line = new StringBuilder(256);
    long companies;
    long rows;

    PgfnRows(SplittableRandom rng, OutputStream out, LocalDate extraction) {
        this.rng = rng;
        this.out = out;
        this.firstDay = (int) LocalDate.of(2000, 1, 1).toEpochDay();
        this.lastDay = (int) extraction.toEpochDay();
    }

    /** Draws whether the company is a debtor ({@code share} of them) and writes its inscriptions if so. */
    void maybeDebtor(String root, String razao, String uf, double share) throws IOException {
        if (!(rng.nextDouble() < share)) {
            return;
        }
        companies++;
        String cnpj = Cnpj.withCheckDigits(root + "0001").value();
        String formatted = cnpj.substring(0, 2) + "." + cnpj.substring(2, 5) + "." + cnpj.substring(5, 8) + "/"
                + cnpj.substring(8, 12) + "-" + cnpj.substring(12);
        int inscriptions = 1 + (int) Math.min(20, -Math.log(rng.nextDouble()) * 0.8);
        for (int i = 0; i < inscriptions; i++) {
            row(formatted, "Pessoa jurídica", "PRINCIPAL", razao, uf);
            rows++;
        }
        if (rng.nextDouble() < 0.15) {
            String cpf = "***." + DumpGenerator.Part.pad(rng.nextInt(1000), 3) + "."
                    + DumpGenerator.Part.pad(rng.nextInt(1000), 3) + "-**";
            row(cpf, "Pessoa física", "CORRESPONSAVEL", PESSOAS[rng.nextInt(PESSOAS.length)], uf);
        }
    }

    private void row(String document, String kind, String role, String name, String uf) throws IOException {
        int day = firstDay + rng.nextInt(Math.max(1, lastDay - firstDay));
        LocalDate d = LocalDate.ofEpochDay(day);
        boolean judicial = rng.nextDouble() < 0.35;
        long cents = (long) Math.exp(9 + rng.nextDouble() * 9);
        line.setLength(0);
        line.append(document)
                .append(';')
                .append(kind)
                .append(';')
                .append(role)
                .append(';')
                .append(name)
                .append(';')
                .append(uf)
                .append(";PROCURADORIA DA FAZENDA NACIONAL EM ")
                .append(uf)
                .append(";80 ")
                .append(2 + rng.nextInt(6))
                .append(' ')
                .append(DumpGenerator.Part.pad(d.getYear() % 100, 2))
                .append(' ')
                .append(DumpGenerator.Part.pad(rng.nextInt(1_000_000), 6))
                .append('-')
                .append(DumpGenerator.Part.pad(rng.nextInt(100), 2))
                .append(';')
                .append(SITUACOES[DumpGenerator.Model.pick(SITUACAO_W, rng)])
                .append(';')
                .append(judicial ? "ATIVA AJUIZADA" : "ATIVA EM COBRANCA")
                .append(';')
                .append(RECEITAS[DumpGenerator.Model.pick(RECEITA_W, rng)])
                .append(';')
                .append(DumpGenerator.Part.pad(d.getDayOfMonth(), 2))
                .append('/')
                .append(DumpGenerator.Part.pad(d.getMonthValue(), 2))
                .append('/')
                .append(d.getYear())
                .append(';')
                .append(judicial ? "SIM" : "NAO")
                .append(';')
                .append(cents / 100)
                .append('.')
                .append(DumpGenerator.Part.pad(cents % 100, 2))
                .append('\n');
        out.write(line.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** {@code 202606}: the last month of the latest quarter that ended before the extraction month. */
    static String quarter(LocalDate extraction) {
        int month = (extraction.getMonthValue() - 1) / 3 * 3;
        int year = extraction.getYear();
        if (month == 0) {
            month = 12;
            year--;
        }
        return year + DumpGenerator.Part.pad(month, 2);
    }

    /** Writes {@code debt/Dados_abertos_Nao_Previdenciario.zip}, one entry per part, and deletes the parts. */
    static void writeZip(Path dump, GeneratorOptions options, List<Path> parts, long entryTime) throws IOException {
        Path dir = Files.createDirectories(dump.resolve(GeneratedDump.DEBT_FOLDER));
        String quarter = quarter(options.extractionDate());
        try (ZipOutputStream zip = new ZipOutputStream(
                new java.io.BufferedOutputStream(Files.newOutputStream(dir.resolve(ZIP_NAME)), 1 << 16))) {
            zip.setLevel(options.compressionLevel());
            for (int p = 0; p < parts.size(); p++) {
                ZipEntry entry = new ZipEntry("arquivo_lai_SIDA_" + (p + 1) + "_" + quarter + ".csv");
                entry.setTime(entryTime);
                zip.putNextEntry(entry);
                zip.write(HEADER.getBytes(StandardCharsets.ISO_8859_1));
                try (InputStream in = Files.newInputStream(parts.get(p))) {
                    in.transferTo(zip);
                }
                zip.closeEntry();
                Files.delete(parts.get(p));
            }
        }
    }
}
