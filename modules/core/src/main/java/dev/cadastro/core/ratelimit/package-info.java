/**
 * Request admission and rate limits: 120 requests per minute per key ({@code LIMITE_MINUTO}) and the
 * plan's daily limit per account ({@code LIMITE_DIARIO}), with the values of the {@code X-RateLimit-*}
 * and {@code Retry-After} headers. {@link dev.cadastro.core.ratelimit.Admission} is the use case every
 * request handler calls (authentication and counting in one step); {@link
 * dev.cadastro.core.ratelimit.AdmissionStore} is its port, whose store implementation keeps the
 * counters in the shared database, so every server instance sees one count.
 */
package dev.cadastro.core.ratelimit;
