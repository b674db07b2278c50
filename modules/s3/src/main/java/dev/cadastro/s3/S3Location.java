package dev.cadastro.s3;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where in an object store a set of files lives: a bucket and a key prefix, written {@code
 * s3://BUCKET[/PREFIX]}. The prefix is empty or ends with {@code /}, so {@link #key} is a plain
 * concatenation.
 *
 * @param bucket the bucket name, 3 to 63 lower-case letters, digits, dots and hyphens
 * @param prefix the key prefix, empty or ending with {@code /}
 */
public record S3Location(String bucket, String prefix) {
    /** What a value must start with to name an object store rather than a folder. */
    public static final String SCHEME = "s3://";

    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern PREFIX = Pattern.compile("([A-Za-z0-9_-][A-Za-z0-9._-]*/)*");
    private static final String FORM = "s3://BUCKET[/PREFIX]";

    public S3Location {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(prefix, "prefix");
        if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
            throw new IllegalArgumentException("bucket " + bucket
                    + " must be 3 to 63 lower-case letters, digits, dots or hyphens, starting and ending with a"
                    + " letter or digit");
        }
        if (!PREFIX.matcher(prefix).matches() || prefix.contains("..")) {
            throw new IllegalArgumentException("prefix " + prefix
                    + " must be segments of letters, digits, '.', '_' or '-' separated by '/', ending with '/'");
        }
    }

    /** Whether {@code value} names an object store ({@code s3://...}) rather than a local folder. */
    public static boolean isObjectStore(String value) {
        return value != null && value.startsWith(SCHEME);
    }

    /**
     * Parses {@code s3://BUCKET[/PREFIX]} given to {@code option}; a trailing slash is optional.
     *
     * @throws IllegalArgumentException naming the option, the value and the rule it breaks
     */
    public static S3Location parse(String option, String value) {
        Objects.requireNonNull(option, "option");
        if (!isObjectStore(value)) {
            throw new IllegalArgumentException(option + " " + value + " must be " + FORM);
        }
        String rest = value.substring(SCHEME.length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        if (!prefix.isEmpty() && !prefix.endsWith("/")) {
            prefix = prefix + "/";
        }
        try {
            return new S3Location(bucket, prefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + value + ": " + e.getMessage() + " (" + FORM + ")");
        }
    }

    /** The object key of {@code key} under this location. */
    public String key(String key) {
        return prefix + key;
    }

    /** This location's {@code s3://} form. */
    @Override
    public String toString() {
        return SCHEME + bucket + (prefix.isEmpty() ? "" : "/" + prefix.substring(0, prefix.length() - 1));
    }
}
