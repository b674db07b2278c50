/**
 * Telemetry: the port through which the adapters report what happened ({@link
 * dev.cadastro.core.telemetry.Telemetry}: requests answered, credits charged, ledger entries written,
 * webhook attempts), without knowing where it goes. The core and every adapter work with {@link
 * dev.cadastro.core.telemetry.Telemetry#NONE}; the server wires the Prometheus adapter. Every label an
 * event carries is a closed set of words (a route template, an operation name, a status), never a value
 * a client sent: no document, phone, key or code ever reaches a metric.
 */
package dev.cadastro.core.telemetry;
