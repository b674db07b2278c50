/**
 * The call-records service's core: the call record ({@link dev.cadastro.core.calls.CallRecord}) and its
 * list order, filters and signed cursors, integrations and their tokens, the ingest of calls from a
 * telephone exchange ({@link dev.cadastro.core.calls.CallSource}) into the {@link
 * dev.cadastro.core.calls.CallStore}, and recording links signed for one hour or for good. The push of
 * each call to the client's endpoint lives in {@code dev.cadastro.core.calls.push}.
 */
package dev.cadastro.core.calls;
