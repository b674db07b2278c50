/**
 * The one way Cadastro writes an instant for people and for the company-data API: ISO 8601 in
 * America/Sao_Paulo with its offset ({@link dev.cadastro.core.time.SaoPauloTime}).
 */
package dev.cadastro.core.time;
