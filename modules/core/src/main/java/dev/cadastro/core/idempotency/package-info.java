/**
 * Client idempotency keys bound to the request they were first used for: a retry with the same key
 * and the same request gets the first answer again without running or charging anything twice; the
 * same key on another request is refused. {@link dev.cadastro.core.idempotency.IdempotentCalls} is the
 * use-case side, {@link dev.cadastro.core.idempotency.IdempotencyStore} the port a store implements.
 */
package dev.cadastro.core.idempotency;
