package dev.cadastro.providers;

import dev.cadastro.core.document.Phone;
import dev.cadastro.core.sms.DeliveryReceipt;
import dev.cadastro.core.sms.SmsGateway;
import dev.cadastro.core.sms.SmsMessage;
import dev.cadastro.providers.internal.Faults;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A simulated SMS provider. It accepts every message unless its {@link FaultPlan} says otherwise (the
 * plan's documents are phone numbers as digits, {@code 11987654321}: {@code down} refuses, {@code
 * slow=...} delays), and then:
 *
 * <ul>
 *   <li>for a number whose last four digits are {@code 0000} ({@link #failsDelivery}), reports later,
 *       as a real provider's delivery-receipt callback would, that delivery failed; and, like such
 *       callbacks, it may report it more than once (it always sends the receipt twice);
 *   <li>otherwise "delivers" the message to the {@link SmsInbox}, where only an operator reads it.
 * </ul>
 *
 * Receipts go to the listener set by {@link #onReceipt}, from a background thread, {@link
 * #receiptDelay} after the message was accepted. It has no timeout or breaker of its own: wrap it with
 * {@link GuardedProviders}.
 */
public final class SimulatedSms implements SmsGateway, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(SimulatedSms.class.getName());

    /** The provider name used in failures and logs. */
    public static final String NAME = "sms";

    private final SmsInbox inbox;
    private final FaultPlan faults;
    private final Clock clock;
    private final Duration receiptDelay;
    private final ScheduledExecutorService receipts;
    private final AtomicLong ids = new AtomicLong();
    private volatile Consumer<DeliveryReceipt> listener = r -> {};

    public SimulatedSms(SmsInbox inbox, FaultPlan faults, Clock clock, Duration receiptDelay) {
        this.inbox = Objects.requireNonNull(inbox, "inbox");
        this.faults = Objects.requireNonNull(faults, "faults");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.receiptDelay = Objects.requireNonNull(receiptDelay, "receiptDelay");
        this.receipts = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("sms-receipts").factory());
    }

    /** Whether messages to this number fail delivery (its last four digits are {@code 0000}). */
    public static boolean failsDelivery(Phone phone) {
        return phone.number().endsWith("0000");
    }

    /** Where delivery receipts go (the server wires the OTP use case). Returns this provider. */
    public SimulatedSms onReceipt(Consumer<DeliveryReceipt> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    public FaultPlan faults() {
        return faults;
    }

    public SmsInbox inbox() {
        return inbox;
    }

    public Duration receiptDelay() {
        return receiptDelay;
    }

    @Override
    public String send(SmsMessage message) {
        Objects.requireNonNull(message, "message");
        Faults.beforeAnswer(NAME, faults.faultFor(message.to().national()));
        String id = "sim-" + ids.incrementAndGet();
        if (failsDelivery(message.to())) {
            DeliveryReceipt failed = new DeliveryReceipt(message.reference(), id, false);
            schedule(failed, receiptDelay);
            schedule(failed, receiptDelay.multipliedBy(2));
        } else {
            inbox.deliver(clock.instant(), message.to(), message.reference(), message.text());
        }
        return id;
    }

    private void schedule(DeliveryReceipt receipt, Duration delay) {
        receipts.schedule(
                () -> {
                    try {
                        listener.accept(receipt);
                    } catch (RuntimeException e) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "delivery receipt of " + receipt.reference()
                                        + " was not taken; a real provider would retry",
                                e);
                    }
                },
                delay.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** Stops sending receipts; those not sent yet are dropped. */
    @Override
    public void close() {
        receipts.shutdownNow();
    }

    /** The messages delivered to a phone, latest last. */
    public java.util.List<SmsInbox.Message> delivered(Phone phone, int limit) {
        return inbox.read(phone, limit);
    }

    @Override
    public String toString() {
        return "SimulatedSms[" + inbox.file() + ", faults=" + faults + "]";
    }
}
