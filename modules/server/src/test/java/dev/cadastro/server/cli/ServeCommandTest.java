package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Usage errors of serve and demo exit 2 and name the flag, before anything starts. */
class ServeCommandTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "serve|--index DIR is required",
                "serve --index x --database jdbc:postgresql://h/d --embedded-db y|not both",
                "serve --index x --port 70000|--port 70000 is outside 0..65535",
                "serve --index x --port http|--port 'http' is not a port number",
                "serve --index x --verbose yes|unknown flag --verbose",
                "serve --index x --calls-port 9090|call-records service is not part of this build",
                "serve --index|--index needs a value",
                "serve stray|unexpected argument 'stray'",
                "serve --index x --index y|--index is given twice",
                "demo --establishments 0|--establishments 0 must be at least 1",
                "demo --log loud|--log loud: one of warning, info, debug"
            })
    void rejectsBadFlagsWithExitStatus2NamingTheFlag(String line, String expected) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.standard()
                .run(
                        List.of(line.split(" ")),
                        new PrintStream(new ByteArrayOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, text);
        assertTrue(text.contains(expected), text);
    }
}
