/**
 * The company-data use cases: register search and CNPJ lookup with their cost rules ({@link
 * dev.cadastro.core.company.CompanyService}). Adapters call these after authentication, the rate
 * limit and the scope check; the use cases decide what is delivered and what is charged.
 */
package dev.cadastro.core.company;
