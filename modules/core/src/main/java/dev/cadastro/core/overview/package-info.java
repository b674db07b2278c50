/**
 * An account's overview for its own keys: balances, what running exports hold, the plan's daily limit
 * and today's use, the asking key's scopes and release. {@link
 * dev.cadastro.core.overview.AccountOverviewService} is the use case; {@link
 * dev.cadastro.core.overview.AccountFunds} its port to the store.
 */
package dev.cadastro.core.overview;
