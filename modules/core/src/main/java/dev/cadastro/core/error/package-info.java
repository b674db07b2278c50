/**
 * The error catalogue: the closed set of codes of both services' contracts ({@link
 * dev.cadastro.core.error.ErrorCode}) and the unchecked exception root every use case throws ({@link
 * dev.cadastro.core.error.CadastroException}). No HTTP knowledge lives here.
 */
package dev.cadastro.core.error;
