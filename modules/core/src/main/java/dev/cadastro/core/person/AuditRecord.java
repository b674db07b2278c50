package dev.cadastro.core.person;

import dev.cadastro.core.account.AccountId;
import java.time.Instant;
import java.util.List;

/**
 * An audit row as the trail returns it for listing and export.
 *
 * @param id the row's sequence number in the trail
 * @param subjectHash the keyed hash in hexadecimal, with the id of the key that made it
 */
public record AuditRecord(
        long id,
        AccountId account,
        String keyPrefix,
        String purpose,
        String justification,
        String justificationSource,
        String subjectKind,
        String subjectHashKeyId,
        String subjectHash,
        List<String> fields,
        String requestId,
        String chargeKey,
        Instant at) {}
