package dev.cadastro.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class S3LocationTest {
    @Test
    void parsesABucketAndAnOptionalPrefix() {
        assertEquals(new S3Location("exports", ""), S3Location.parse("--files", "s3://exports"));
        assertEquals(new S3Location("exports", ""), S3Location.parse("--files", "s3://exports/"));
        assertEquals(new S3Location("my.bucket-1", "a/b/"), S3Location.parse("--files", "s3://my.bucket-1/a/b"));
        assertEquals(new S3Location("b12", "a/"), S3Location.parse("--files", "s3://b12/a/"));
        assertEquals("s3://b12/a", S3Location.parse("--files", "s3://b12/a/").toString());
        assertEquals(
                "a/mailing/1.zip", S3Location.parse("--files", "s3://b12/a").key("mailing/1.zip"));
    }

    @Test
    void refusesBadLocationsNamingTheFlagAndTheRule() {
        for (String bad : new String[] {
            "s3://",
            "s3://ab",
            "s3://Upper",
            "s3://-x-",
            "s3://b..c",
            "s3://ok/a//b",
            "s3://ok/../b",
            "s3://ok/a b",
            "/tmp/x",
            "S3://ok"
        }) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> S3Location.parse("--files", bad), bad);
            assertTrue(e.getMessage().startsWith("--files " + bad), e.getMessage());
            assertTrue(e.getMessage().contains("s3://BUCKET[/PREFIX]"), e.getMessage());
        }
        assertTrue(S3Location.isObjectStore("s3://x"));
        assertFalse(S3Location.isObjectStore("/srv/files"));
    }

    @Test
    void anEndpointDefaultsTheRegionButAWSNeedsOne() {
        S3Connection local = S3Connection.of("http://127.0.0.1:9000", null, Map.of());
        assertEquals(Optional.of(URI.create("http://127.0.0.1:9000")), local.endpoint());
        assertEquals("us-east-1", local.region());
        assertEquals(
                "sa-east-1",
                S3Connection.of(null, null, Map.of("AWS_REGION", "sa-east-1")).region());
        assertEquals(
                "eu-west-1",
                S3Connection.of(null, "eu-west-1", Map.of("AWS_REGION", "sa-east-1"))
                        .region());
        IllegalArgumentException none =
                assertThrows(IllegalArgumentException.class, () -> S3Connection.of(null, null, Map.of()));
        assertTrue(none.getMessage().contains("--s3-region"), none.getMessage());
        assertTrue(none.getMessage().contains("AWS_REGION"), none.getMessage());
        IllegalArgumentException url =
                assertThrows(IllegalArgumentException.class, () -> S3Connection.of("ftp://x", null, Map.of()));
        assertTrue(url.getMessage().startsWith("--s3-endpoint ftp://x must be"), url.getMessage());
        assertThrows(IllegalArgumentException.class, () -> S3Connection.of(null, "Not A Region", Map.of()));
    }
}
