/**
 * Person (CPF) lookup, the most regulated operation of the service (docs/rules.md;
 * LGPD purpose, necessity and accountability): the person bureau port, the dossier and its two filters
 * (the written allowlist, then the fields the account contracted for the purpose), the justification
 * rule, the audit port whose row commits with the charge, the async job state machine and the use case
 * that runs the checks in the contract's order.
 */
package dev.cadastro.core.person;
