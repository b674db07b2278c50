/**
 * Sample data for the synthetic dump generator and the simulated providers: word lists read from
 * resources ({@link dev.cadastro.core.sample.WordList}). Not API: exported to those two modules only.
 */
package dev.cadastro.core.sample;
