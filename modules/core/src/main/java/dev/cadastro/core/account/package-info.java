/**
 * Accounts and API keys: the {@link dev.cadastro.core.account.Account} with its plan, LGPD
 * accreditation and contracted purposes, the {@link dev.cadastro.core.account.ApiKey} metadata, the
 * {@link dev.cadastro.core.account.Scope scopes} of the contract, and the use cases that turn
 * the key a caller presents into an authenticated {@link dev.cadastro.core.account.Principal} ({@link
 * dev.cadastro.core.account.Authenticator}) and issue keys ({@link
 * dev.cadastro.core.account.ApiKeyIssuer}). {@link dev.cadastro.core.account.Accounts} and {@link
 * dev.cadastro.core.account.ApiKeys} are the ports a store implements.
 */
package dev.cadastro.core.account;
