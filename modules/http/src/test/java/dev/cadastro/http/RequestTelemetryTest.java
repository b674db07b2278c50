package dev.cadastro.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RequestTelemetryTest {
    @Test
    void anUnusualMethodIsOther() {
        assertEquals("GET", RequestTelemetry.methodLabel("GET"));
        assertEquals("OTHER", RequestTelemetry.methodLabel("PROPFIND"));
        assertEquals("OTHER", RequestTelemetry.methodLabel("get"));
    }
}
