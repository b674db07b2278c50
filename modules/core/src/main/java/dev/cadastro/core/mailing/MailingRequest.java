package dev.cadastro.core.mailing;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.register.RegisterQuery;
import java.util.Objects;

/**
 * What a client asked to export: the filters of a search (at least one), how many leads (1 to {@value
 * #MAX_QUANTITY}) and the file format; with {@code alteracoes}, the register's monthly changes of those
 * types whose new record matches the filters (then no filter is required), a lead file of changes.
 */
public record MailingRequest(
        RegisterQuery filtros,
        int quantidade,
        ExportFormat formato,
        java.util.Optional<dev.cadastro.core.register.ChangeQuery> alteracoes) {
    /** An export of the search's matches. */
    public MailingRequest(RegisterQuery filtros, int quantidade, ExportFormat formato) {
        this(filtros, quantidade, formato, java.util.Optional.empty());
    }

    /** The largest export. */
    public static final int MAX_QUANTITY = 50_000;

    public MailingRequest {
        Objects.requireNonNull(filtros, "filtros");
        Objects.requireNonNull(formato, "formato");
        Objects.requireNonNull(alteracoes, "alteracoes");
        if (quantidade < 1 || quantidade > MAX_QUANTITY) {
            throw InvalidParameterException.of(
                    "quantidade", "range", Message.MAILING_QUANTITY.with(quantidade, MAX_QUANTITY));
        }
    }
}
