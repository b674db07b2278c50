package dev.cadastro.core.sms;

import java.time.Instant;

/**
 * The answer to a send: never the code.
 *
 * @param id the dispatch id ({@code envio_id})
 * @param expiresAt when the code stops being checkable ({@code expira_em})
 * @param creditsConsumed SMS credits charged ({@code creditos_sms_consumidos}): 1
 */
public record OtpSent(String id, Instant expiresAt, long creditsConsumed) {}
