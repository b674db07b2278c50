package dev.cadastro.core.person;

import java.time.Duration;
import java.time.Instant;

/** What a read of an async person job answers. */
public sealed interface JobRead {
    String jobId();

    /** This read ran the lookup: the result, delivered now and never again. */
    record DeliveredNow(String jobId, PersonOutcome outcome) implements JobRead {}

    /** Another read is running the lookup: ask again after {@code retryAfter}. */
    record Processing(String jobId, Duration retryAfter) implements JobRead {}

    /** An earlier read received the result, at {@code at}; it is not kept. */
    record DeliveredBefore(String jobId, Instant at) implements JobRead {}
}
