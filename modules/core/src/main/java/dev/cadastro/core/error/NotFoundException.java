package dev.cadastro.core.error;

/** The addressed resource does not exist ({@link ErrorCode#NAO_ENCONTRADO}). */
public class NotFoundException extends CadastroException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(LocalizedText message) {
        super(ErrorCode.NAO_ENCONTRADO, message);
    }
}
