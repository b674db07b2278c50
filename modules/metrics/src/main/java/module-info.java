/**
 * The Prometheus adapter of Cadastro's telemetry port: {@link dev.cadastro.metrics.PrometheusTelemetry}
 * keeps the counters and histograms the core's {@code Telemetry} events feed, reads the gauges the
 * server registers when scraped (job queues, provider circuits, the register), and writes them all in
 * the Prometheus text format. Prometheus client_java 1.x, without protobuf.
 */
module dev.cadastro.metrics {
    requires transitive dev.cadastro.core;
    requires io.prometheus.metrics.core;
    requires io.prometheus.metrics.model;
    requires io.prometheus.metrics.config;
    requires io.prometheus.writer.text;

    exports dev.cadastro.metrics;
}
