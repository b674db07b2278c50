/**
 * JMH benchmarks, one subpackage per area (documents, register, ledger, http). Each benchmark's
 * Javadoc names the production path it exercises. Each run is a dated section in {@code
 * benchmarks/history/}; each goal's current figure is a row of {@code benchmarks/RESULTS.md}.
 */
package dev.cadastro.benchmarks;
