package dev.cadastro.core.calls.push;

import dev.cadastro.core.calls.Integration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Port: the push destination of each integration (at most one). Each method is one transaction. */
public interface PushDestinations {

    /** The integration by name, when it exists. */
    Optional<Integration> integration(String name);

    /** Sets (creates or replaces) the integration's destination. */
    void set(PushDestination destination, Instant now);

    Optional<PushDestination> get(long integrationId);

    /** Pauses deliveries to it (they wait, pending); false when the integration has no destination. */
    boolean pause(long integrationId, Instant now);

    /** Resumes deliveries; false when the integration has no destination. */
    boolean resume(long integrationId, Instant now);

    /** Every destination, by integration name. */
    List<PushDestination> list();
}
