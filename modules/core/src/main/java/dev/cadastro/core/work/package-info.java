/**
 * Background work shared by every server on one database: work items live in the store, a worker
 * claims one under a lease ({@code FOR UPDATE SKIP LOCKED} in PostgreSQL), renews the lease while it
 * works, and ends it; an item whose server died is claimed again once its lease ran out. {@link
 * dev.cadastro.core.work.WorkQueue} is the port, {@link dev.cadastro.core.work.WorkerPool} the loop.
 * Mailing exports use it; the push deliveries and the call ingest will.
 */
package dev.cadastro.core.work;
