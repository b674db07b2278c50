package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValidateCommandTest {

    /** Exit status and both streams of one in-process run of the standard command line. */
    private record Run(int status, String out, String err) {}

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Cli.standard().run(List.of(args), o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void reportsEachArgumentAndExitsOneWhenAnyIsInvalid() {
        Run run = run("validate", "12.ABC.345/01DE-35", "111.444.777-35", "123");
        assertEquals(1, run.status());
        assertEquals("""
                12.ABC.345/01DE-35: valid CNPJ (alphanumeric), canonical 12ABC34501DE35, formatted 12.ABC.345/01DE-35
                111.444.777-35: valid CPF, canonical 11144477735, formatted 111.444.777-35
                123: invalid (neither a CPF nor a CNPJ), rule format: documento '123' is neither a CPF nor a CNPJ: \
                it has 3 characters, a CPF has 11 digits (or NNN.NNN.NNN-NN) and a CNPJ 14 characters \
                (or NN.NNN.NNN/NNNN-NN)
                """, run.out().replace(System.lineSeparator(), "\n"));
        assertEquals("", run.err());
    }

    @Test
    void exitsZeroWhenAllAreValid() {
        Run run = run("validate", "11222333000181", "12abc34501de35", "52998224725");
        assertEquals(0, run.status());
        assertTrue(
                run.out()
                        .contains("11222333000181: valid CNPJ, canonical 11222333000181, formatted 11.222.333/0001-81"),
                run.out());
        assertTrue(
                run.out().contains("12abc34501de35: valid CNPJ (alphanumeric), canonical 12ABC34501DE35"), run.out());
        assertTrue(
                run.out().contains("52998224725: valid CPF, canonical 52998224725, formatted 529.982.247-25"),
                run.out());
    }

    @Test
    void namesTheRuleABadDocumentBreaks() {
        Run run = run("validate", "111.444.777-36", "12.ABC.345/01DE-3A", "111.111.111-11");
        assertEquals(1, run.status());
        assertTrue(
                run.out()
                        .contains(
                                "111.444.777-36: invalid CPF, rule check-digits: cpf '111.444.777-36' has check digits 36, expected 35"),
                run.out());
        assertTrue(run.out().contains("12.ABC.345/01DE-3A: invalid CNPJ, rule check-digits-numeric"), run.out());
        assertTrue(run.out().contains("111.111.111-11: invalid CPF, rule repeated-digits"), run.out());
    }

    @Test
    void withoutArgumentsIsAUsageError() {
        Run run = run("validate");
        assertEquals(2, run.status());
        assertTrue(run.err().contains("cadastro validate: Missing required parameter: 'DOC'"), run.err());
    }

    @Test
    void isListedInTheHelp() {
        Run run = run("help");
        assertEquals(0, run.status());
        assertTrue(run.out().contains("validate"), run.out());
    }
}
