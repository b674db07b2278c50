package dev.cadastro.s3.testing;

import dev.cadastro.s3.S3Connection;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 protocol server for tests: s3proxy on its jclouds {@code filesystem} backend (a folder),
 * listening on a free loopback port, inside the test JVM. It runs from s3proxy's jar-with-dependencies
 * in its own class loader (parent: the platform loader), so its shaded Jetty 11, Jackson, Guava and
 * jclouds never meet the project's Jetty 12 and Jackson on the module path. Requests are signed (AWS
 * Signature V4) with the fixed test credentials {@link #connection()} carries.
 *
 * <p>Other modules' tests use it from the {@code cadastro-s3} test-jar; the jar is found through the
 * system property {@code s3proxy.jar}, else {@code target/s3proxy/s3proxy.jar} (a {@code
 * dependency:copy} of {@code org.gaul:s3proxy:jar-with-dependencies}), else the local Maven repository.
 */
public final class S3ProxyFixture implements AutoCloseable {
    public static final String ACCESS_KEY = "cadastro-test";
    public static final String SECRET_KEY = "cadastro-test-secret";
    private static final String VERSION = "2.6.0";

    private final URLClassLoader loader;
    private final Object proxy;
    private final Object context;
    private final URI endpoint;

    private S3ProxyFixture(URLClassLoader loader, Object proxy, Object context, URI endpoint) {
        this.loader = loader;
        this.proxy = proxy;
        this.context = context;
        this.endpoint = endpoint;
    }

    /** Starts s3proxy keeping its buckets under {@code basedir}; waits until it accepts requests. */
    public static S3ProxyFixture start(Path basedir) throws Exception {
        Files.createDirectories(basedir);
        URLClassLoader loader =
                new URLClassLoader("s3proxy", new URL[] {jar().toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        // jclouds finds its providers through the context class loader; s3proxy's threads inherit it.
        thread.setContextClassLoader(loader);
        try {
            Properties overrides = new Properties();
            overrides.setProperty(
                    "jclouds.filesystem.basedir", basedir.toAbsolutePath().toString());
            Class<?> contextBuilder = loader.loadClass("org.jclouds.ContextBuilder");
            Object builder =
                    contextBuilder.getMethod("newBuilder", String.class).invoke(null, "filesystem");
            builder = contextBuilder.getMethod("overrides", Properties.class).invoke(builder, overrides);
            Class<?> blobStoreContext = loader.loadClass("org.jclouds.blobstore.BlobStoreContext");
            Object context = contextBuilder.getMethod("build", Class.class).invoke(builder, blobStoreContext);
            Object blobStore = blobStoreContext.getMethod("getBlobStore").invoke(context);

            Class<?> s3Proxy = loader.loadClass("org.gaul.s3proxy.S3Proxy");
            Object b = s3Proxy.getMethod("builder").invoke(null);
            Class<?> builderClass = b.getClass();
            method(builderClass, "blobStore").invoke(b, blobStore);
            builderClass.getMethod("endpoint", URI.class).invoke(b, URI.create("http://127.0.0.1:0"));
            Class<?> auth = loader.loadClass("org.gaul.s3proxy.AuthenticationType");
            builderClass
                    .getMethod("awsAuthentication", auth, String.class, String.class)
                    .invoke(b, auth.getField("AWS_V2_OR_V4").get(null), ACCESS_KEY, SECRET_KEY);
            builderClass.getMethod("jettyMaxThreads", int.class).invoke(b, 24);
            Object proxy = builderClass.getMethod("build").invoke(b);
            s3Proxy.getMethod("start").invoke(proxy);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!"STARTED".equals(s3Proxy.getMethod("getState").invoke(proxy))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("s3proxy did not start within 30 s");
                }
                Thread.onSpinWait();
            }
            int port = (int) s3Proxy.getMethod("getPort").invoke(proxy);
            return new S3ProxyFixture(loader, proxy, context, URI.create("http://127.0.0.1:" + port));
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    /** The server's URL, for {@code --s3-endpoint}. */
    public URI endpoint() {
        return endpoint;
    }

    /** The connection to this server: its endpoint (path-style), us-east-1, the fixed test credentials. */
    public S3Connection connection() {
        return new S3Connection(
                Optional.of(endpoint),
                S3Connection.ENDPOINT_DEFAULT_REGION,
                StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)));
    }

    /** Creates a bucket (idempotent within a test: an existing one is kept). */
    public void createBucket(String bucket) {
        try (S3Client client = connection().client()) {
            try {
                client.createBucket(b -> b.bucket(bucket));
            } catch (software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException e) {
                // already there
            }
        }
    }

    @Override
    public void close() throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            proxy.getClass().getMethod("stop").invoke(proxy);
            ((java.io.Closeable) context).close();
        } finally {
            thread.setContextClassLoader(before);
            loader.close();
        }
    }

    private static Method method(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == (name.equals("close") ? 0 : 1)) {
                m.setAccessible(true);
                return m;
            }
        }
        throw new IllegalStateException(type + " has no method " + name);
    }

    private static Path jar() throws MalformedURLException, IOException {
        String property = System.getProperty("s3proxy.jar");
        if (property != null) {
            return Path.of(property);
        }
        Path copied = Path.of("target", "s3proxy", "s3proxy.jar");
        if (Files.isRegularFile(copied)) {
            return copied;
        }
        String repository = System.getProperty(
                "maven.repo.local",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
        Path local = Path.of(
                repository, "org", "gaul", "s3proxy", VERSION, "s3proxy-" + VERSION + "-jar-with-dependencies.jar");
        if (Files.isRegularFile(local)) {
            return local;
        }
        throw new IllegalStateException("s3proxy's jar-with-dependencies is not at " + copied + " nor " + local
                + ": run the build through ./mvnw (the test-resources phase copies it) or set -Ds3proxy.jar");
    }
}
