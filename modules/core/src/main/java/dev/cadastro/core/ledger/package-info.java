/**
 * The credit ledger: immutable entries with idempotency keys, holds (reserve, then post or release),
 * balances that never go below zero, and the contract's cost table as pure functions ({@link
 * dev.cadastro.core.ledger.CostRules}) whose idempotency keys encode the dedup rules. {@link
 * dev.cadastro.core.ledger.Ledger} is the port a store implements.
 */
package dev.cadastro.core.ledger;
