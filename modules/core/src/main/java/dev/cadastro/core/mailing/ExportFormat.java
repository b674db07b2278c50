package dev.cadastro.core.mailing;

import dev.cadastro.core.error.InvalidParameterException;
import dev.cadastro.core.error.Message;
import dev.cadastro.core.internal.Texts;

/** The file format of a mailing export: the file inside the ZIP. */
public enum ExportFormat {
    /** UTF-8 with a byte-order mark, {@code ;} separated, CRLF, RFC 4180 quoting (Excel and LibreOffice in pt-BR). */
    CSV("csv", "text/csv"),
    /** Office Open XML spreadsheet, one sheet. */
    XLSX("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");

    private final String wire;
    private final String mediaType;

    ExportFormat(String wire, String mediaType) {
        this.wire = wire;
        this.mediaType = mediaType;
    }

    /** The name in the API ({@code csv}, {@code xlsx}), also the file extension. */
    public String wire() {
        return wire;
    }

    /** The media type of the file inside the ZIP. */
    public String mediaType() {
        return mediaType;
    }

    /**
     * Parses the API name.
     *
     * @throws InvalidParameterException naming the field when the value is not {@code csv} or {@code xlsx}
     */
    public static ExportFormat parse(String field, String value) {
        for (ExportFormat f : values()) {
            if (f.wire.equals(value)) {
                return f;
            }
        }
        throw InvalidParameterException.of(field, "one-of", Message.EXPORT_FORMAT.with(field, Texts.quote(value)));
    }
}
