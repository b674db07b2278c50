/**
 * Brazilian documents as value types: {@link dev.cadastro.core.document.Cpf}, {@link
 * dev.cadastro.core.document.Cnpj} (numeric and alphanumeric), {@link
 * dev.cadastro.core.document.CnpjRoot} and {@link dev.cadastro.core.document.Phone}. Untrusted text
 * is parsed into a {@link dev.cadastro.core.document.Parsed} value or a {@link
 * dev.cadastro.core.document.Violation} that names the field and the rule.
 */
package dev.cadastro.core.document;
