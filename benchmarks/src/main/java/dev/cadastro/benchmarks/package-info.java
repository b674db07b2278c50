/**
 * JMH benchmarks, one subpackage per area (documents, register, ledger, http). Each benchmark's
 * Javadoc names the production path it exercises. Results go to {@code benchmarks/RESULTS.md}.
 */
package dev.cadastro.benchmarks;
