/**
 * The push of each ready call to its integration's endpoint: the destination an
 * operator sets ({@link dev.cadastro.core.calls.push.PushDestination}), the checks of where it points
 * ({@link dev.cadastro.core.calls.push.DestinationPolicy}), the outbox of deliveries ({@link
 * dev.cadastro.core.calls.push.DeliveryQueue}, written by the call store in the transaction of the call's
 * change), the retry schedule ({@link dev.cadastro.core.calls.push.RetrySchedule}), Standard Webhooks
 * signatures ({@link dev.cadastro.core.calls.push.WebhookSignature}), and the use case that sends one
 * delivery ({@link dev.cadastro.core.calls.push.PushDelivery}) run by {@link
 * dev.cadastro.core.calls.push.PushWorkers} on a {@link dev.cadastro.core.work.WorkerPool}. Delivery is at least once: receivers deduplicate on
 * {@code webhook-id}.
 */
package dev.cadastro.core.calls.push;
