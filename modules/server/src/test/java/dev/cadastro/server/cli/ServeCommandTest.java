package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.server.cli.CliRuns.Run;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Usage errors of serve and demo exit 2 and name the flag in one line, before anything starts. */
class ServeCommandTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "serve|Missing required option: '--index=DIR'",
                "serve --index x --database jdbc:postgresql://h/d --embedded-db y|not both",
                "serve --index x --port 70000|--port 70000 must be between 0 and 65535",
                "serve --index x --port http|'http' is not a whole number",
                "serve --index x --colour red|unknown option '--colour'",
                "serve --index x --verbose yes|unexpected argument 'yes'",
                "serve --index x --calls-port 70000|--calls-port 70000 must be between 0 and 65535",
                "serve --index x --calls-port 9090 --recordings-port 9090|--calls-port and --recordings-port are both 9090",
                "serve --index x --calls-port 0 --recordings-base-url ftp://cdn|--recordings-base-url ftp://cdn is not",
                "serve --index x --simulated-exchange demo|--simulated-exchange needs --calls-port",
                "serve --index x --calls-port 0 --simulated-exchange Demo!|--simulated-exchange Demo! must be",
                "serve --index x --calls-port 0 --calls-refresh 5|--calls-refresh 5 is not a duration",
                "serve --index x --calls-port 0 --calls-refresh 0s|--calls-refresh 0s must be at least 1 second",
                "serve --index x --requests-per-minute 0|--requests-per-minute 0 must be at least 1",
                "serve --index x --metrics-port 70000|--metrics-port 70000 must be between 0 and 65535",
                "demo --metrics-port -1|--metrics-port -1 must be between 0 and 65535",
                "serve --index x --access-log yes|--access-log yes must be on or off",
                "serve --index|Missing required parameter for option '--index'",
                "serve stray --index x|unexpected argument 'stray'",
                "serve --index x --index y|should be specified only once",
                "demo --establishments 0|--establishments 0 must be between 1 and 100000000",
                "demo --log loud|Invalid value for option '--log'",
                "demo --calls-port 8082|--calls-port and --recordings-port are both 8082",
                "demo --calls-refresh soon|--calls-refresh soon is not a duration",
                "serve --index x --bureau-faults explode|--bureau-faults: ",
                "serve --index x --credit-faults down;share=2|--credit-faults: ",
                "serve --index x --provider-timeout-ms 0|--provider-timeout-ms 0 must be between 1 and 60000",
                "serve --index x --provider-timeout-ms 60001|--provider-timeout-ms 60001 must be between 1 and 60000",
                "demo --credit-faults slow=forever|--credit-faults: ",
                "serve --index s3://bucket/register|--index s3://bucket/register needs --index-cache DIR",
                "serve --index x --index-poll 1m|--index-poll needs --index-cache DIR",
                "serve --index x --index-cache c --index-poll 0s|--index-poll 0s must be at least 1 second",
                "serve --index x --index-cache c --index-poll 25h|--index-poll 25h must be at most 24h",
                "serve --index s3://Bad_Bucket --index-cache c|--index s3://Bad_Bucket: bucket Bad_Bucket must be",
                "load --dump d --index i --keep-generations 2|--keep-generations needs --publish",
                "load --dump d --index i --allow-no-changes|--allow-no-changes needs --publish",
                "load --dump d --index i --publish p --keep-generations 0|--keep-generations 0 must be between 1 and 1000",
                "load --dump d --index i --s3-endpoint http://localhost:9000|--s3-endpoint needs --publish",
                "load --dump d --index i --publish q --s3-region sa-east-1|--s3-region needs --publish s3://"
            })
    void rejectsBadFlagsWithExitStatus2NamingTheFlag(String line, String expected) {
        Run run = CliRuns.inProcess(List.of(line.split(" ")));
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains(expected), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }
}
