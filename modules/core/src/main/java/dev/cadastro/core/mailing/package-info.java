/**
 * Mailing exports: a job that holds credits at
 * creation, writes the first leads of a search into a ZIP of CSV or XLSX in the background, and
 * charges the leads delivered once at completion (or releases everything on failure). {@link
 * dev.cadastro.core.mailing.MailingService} is the use case; {@link
 * dev.cadastro.core.mailing.MailingJobs} the store port, whose operations each commit the ledger and
 * the job row together.
 */
package dev.cadastro.core.mailing;
