package dev.cadastro.core.calls.push;

/** Why a delivery was queued; the wire names are the outbox's. */
public enum DeliveryReason {
    /** The call became ready: classified and its recording archived. */
    PRONTA("pronta"),
    /** A ready call was reclassified and the destination resends reclassified calls. */
    RECLASSIFICADA("reclassificada"),
    /** The operator asked for the call again. */
    REENVIO("reenvio");

    private final String wire;

    DeliveryReason(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static DeliveryReason ofWire(String wire) {
        for (DeliveryReason r : values()) {
            if (r.wire.equals(wire)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown delivery reason " + wire);
    }
}
