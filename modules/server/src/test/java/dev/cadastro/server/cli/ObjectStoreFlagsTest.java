package dev.cadastro.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cadastro.s3.S3Connection;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;

/** {@code --files s3://...} with {@code --s3-endpoint} and {@code --s3-region}: parsed, checked, explained. */
class ObjectStoreFlagsTest {
    @TempDir
    Path dir;

    @Command(name = "holder")
    static final class Holder {
        @Mixin
        ObjectStoreFlags flags;
    }

    private static S3Connection parse(Map<String, String> env, String... args) {
        Holder holder = new Holder();
        CommandLine line = new CommandLine(holder);
        line.parseArgs(args);
        return holder.flags.connection(env, m -> new ParameterException(line, m));
    }

    @Test
    void anEndpointIsPathStyleWithADefaultRegionAndAwsTakesItsRegionFromTheEnvironment() {
        S3Connection local = parse(Map.of(), "--s3-endpoint", "http://127.0.0.1:9000");
        assertEquals(Optional.of(URI.create("http://127.0.0.1:9000")), local.endpoint());
        assertEquals("us-east-1", local.region());
        assertEquals("sa-east-1", parse(Map.of("AWS_REGION", "sa-east-1")).region());
        assertEquals(
                "eu-west-1",
                parse(Map.of("AWS_REGION", "sa-east-1"), "--s3-region", "eu-west-1")
                        .region());
        ParameterException none = assertThrows(ParameterException.class, () -> parse(Map.of()));
        assertTrue(none.getMessage().contains("give --s3-region REGION or set AWS_REGION"), none.getMessage());
    }

    @Test
    void aBadBucketIsAUsageErrorNamingTheFlagAndTheRule() {
        CliRuns.Run run =
                CliRuns.inProcess("serve", "--index", dir.resolve("index").toString(), "--files", "s3://Bad_Bucket/x");
        assertEquals(2, run.status(), run.err());
        assertTrue(
                run.err().contains("--files s3://Bad_Bucket/x: bucket Bad_Bucket must be 3 to 63 lower-case"),
                run.err());
        assertTrue(run.err().contains("(s3://BUCKET[/PREFIX])"), run.err());
    }

    @Test
    void anObjectStoreFlagWithoutABucketIsAUsageError() {
        for (String command : new String[] {"serve", "demo"}) {
            CliRuns.Run run = command.equals("serve")
                    ? CliRuns.inProcess(
                            "serve",
                            "--index",
                            dir.resolve("index").toString(),
                            "--files",
                            dir.resolve("files").toString(),
                            "--s3-endpoint",
                            "http://127.0.0.1:9000")
                    : CliRuns.inProcess("demo", "--home", dir.resolve("home").toString(), "--s3-region", "sa-east-1");
            assertEquals(2, run.status(), run.err());
            assertTrue(run.err().contains("needs --files s3://BUCKET[/PREFIX]"), run.err());
        }
    }

    @Test
    void aBucketThatDoesNotAnswerStopsTheServerWithOneLineNamingIt() {
        // Credentials from the SDK's chain (here its system properties), so the failure is the endpoint.
        System.setProperty("aws.accessKeyId", "test");
        System.setProperty("aws.secretAccessKey", "test");
        try {
            for (String command : new String[] {"serve", "demo"}) {
                CliRuns.Run run = command.equals("serve")
                        ? CliRuns.inProcess(
                                "serve",
                                "--index",
                                dir.resolve("index").toString(),
                                "--files",
                                "s3://cadastro-files/p",
                                "--s3-endpoint",
                                "http://127.0.0.1:9")
                        : CliRuns.inProcess(
                                "demo",
                                "--home",
                                dir.resolve("home").toString(),
                                "--files",
                                "s3://cadastro-files/p",
                                "--s3-endpoint",
                                "http://127.0.0.1:9");
                assertEquals(3, run.status(), run.err());
                assertTrue(
                        run.err().contains("s3://cadastro-files/p could not be reached at http://127.0.0.1:9"),
                        run.err());
                assertEquals(1, run.err().strip().lines().count(), run.err());
            }
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
    }
}
