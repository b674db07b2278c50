/**
 * What every outside provider port has in common (bureau, credit bureau, person, SMS, telephone
 * exchange): the failure a caller sees and how answers are checked before use.
 *
 * <p>The contract of a provider port, which the adapters in {@code dev.cadastro.providers} keep:
 *
 * <ul>
 *   <li>every call has a timeout, a bounded number of concurrent calls per provider and a circuit
 *       breaker; a call that fails in any of these ways, or whose answer fails validation, throws
 *       {@link dev.cadastro.core.provider.ProviderUnavailableException} ({@code FORNECEDOR_INDISPONIVEL})
 *       and nothing else;
 *   <li>a provider's raw answer is a JSON-like tree ({@code Map<String, ?>}, {@code List<?>}, {@code
 *       String}, {@code Number}, {@code Boolean}, null). It is filtered through a written allowlist of
 *       paths and read into a typed record; what is not on the allowlist (a partner's home address,
 *       phones, parentage, date of birth, any field added later) is dropped there and never reaches
 *       the core, the store or a response. An answer that lacks a required field or has one of the
 *       wrong type is {@link dev.cadastro.core.provider.MalformedAnswerException}, a provider failure;
 *   <li>"the provider has nothing for this document" is an empty {@code Optional}, not a failure.
 * </ul>
 */
package dev.cadastro.core.provider;
