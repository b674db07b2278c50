package dev.cadastro.core.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TelemetryTest {
    @Test
    void anOperationIsTheFirstWordOfAKnownLedgerKey() {
        assertEquals("lookup", Telemetry.operationOf("lookup:42:12345678000195:2026-11-20"));
        assertEquals("person-batch", Telemetry.operationOf("person-batch:42:b1:3"));
        assertEquals("sms", Telemetry.operationOf("sms:42:dispatch:abc"));
    }

    @Test
    void anyOtherKeyIsOutraSoATypedKeyNeverBecomesALabel() {
        assertEquals("outra", Telemetry.operationOf("52998224725"));
        assertEquals("outra", Telemetry.operationOf("admin:top-up:11987654321"));
        assertEquals("outra", Telemetry.operationOf("lookupx:1"));
    }
}
