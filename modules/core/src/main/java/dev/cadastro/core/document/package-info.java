/**
 * Brazilian documents as value types: {@link dev.cadastro.core.document.Cpf}, {@link
 * dev.cadastro.core.document.Cnpj} (numeric and alphanumeric), {@link
 * dev.cadastro.core.document.CnpjRoot}, {@link dev.cadastro.core.document.Phone} with its {@link
 * dev.cadastro.core.document.Ddd area codes}, and {@link dev.cadastro.core.document.TaxId}, which
 * reads either a CPF or a CNPJ by its shape.
 *
 * <p>Every type offers the same two doors for untrusted text: {@code parse(text)} returns a {@link
 * dev.cadastro.core.document.Parsed} value or a {@link dev.cadastro.core.document.Violation} that
 * names the field, the rule (a stable token such as {@code check-digits}) and the value; {@code
 * of(text)} throws {@link dev.cadastro.core.document.InvalidDocumentException} instead. {@code Cpf},
 * {@code Cnpj} and {@code TaxId} add a static {@code isValid(text)} that follows the same rules as
 * {@code parse} and allocates nothing, for hot paths. A value's own constructor accepts only its
 * canonical form.
 */
package dev.cadastro.core.document;
