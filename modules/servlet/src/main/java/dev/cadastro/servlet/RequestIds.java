package dev.cadastro.servlet;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request ids: a random per-servlet prefix and a counter; unique within a run,
 * cheap, not secret.
 */
final class RequestIds {
    private final String prefix = HexFormat.of().toHexDigits(new SecureRandom().nextInt());
    private final AtomicLong counter = new AtomicLong();

    String next() {
        return prefix + "-" + Long.toHexString(counter.incrementAndGet());
    }
}
