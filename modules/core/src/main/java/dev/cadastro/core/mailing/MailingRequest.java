package dev.cadastro.core.mailing;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.register.RegisterQuery;
import java.util.Objects;

/**
 * What a client asked to export: the filters of a search (at least one), how many leads (1 to {@value
 * #MAX_QUANTITY}) and the file format.
 */
public record MailingRequest(RegisterQuery filtros, int quantidade, ExportFormat formato) {
    /** The largest export. */
    public static final int MAX_QUANTITY = 50_000;

    public MailingRequest {
        Objects.requireNonNull(filtros, "filtros");
        Objects.requireNonNull(formato, "formato");
        if (quantidade < 1 || quantidade > MAX_QUANTITY) {
            throw InvalidParameterException.of(
                    "quantidade", "range", Message.MAILING_QUANTITY.with(quantidade, MAX_QUANTITY));
        }
    }
}
