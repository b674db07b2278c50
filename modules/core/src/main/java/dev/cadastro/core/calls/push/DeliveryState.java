package dev.cadastro.core.calls.push;

/**
 * A delivery's state: {@code pendente} until a 2xx ({@code entregue}) or the last of its seven
 * attempts failed ({@code falhou}); a replay takes a {@code falhou} delivery back to {@code pendente}.
 */
public enum DeliveryState {
    PENDENTE("pendente"),
    ENTREGUE("entregue"),
    FALHOU("falhou");

    private final String wire;

    DeliveryState(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static DeliveryState ofWire(String wire) {
        for (DeliveryState s : values()) {
            if (s.wire.equals(wire)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown delivery state " + wire + "; one of pendente, entregue, falhou");
    }
}
