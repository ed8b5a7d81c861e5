import CoreMetrics
import CorkboardHub
import Prometheus
import Sockets
import Synchronization

/// The server's Prometheus registry (`GET /metrics`): the hub records into it through
/// swift-metrics, and the socket layer's traffic counters are copied in at each scrape.
/// One registry per server, not the process-wide default, so servers in one process
/// (the tests run many) never mix their figures. Every family has its HELP text, the hub's
/// from `Hub.metricHelp`.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// What the hub is given to make its counters, gauges and latency histograms with.
    let factory: DescribedMetricsFactory

    private let connections: Prometheus.Gauge
    private let accepted: Prometheus.Counter
    private let bytesIn: Prometheus.Counter
    private let bytesOut: Prometheus.Counter
    private let slowConsumersDropped: Prometheus.Counter
    private let transportFailures: Prometheus.Counter
    private let refused: Prometheus.Counter
    private let writeCalls: Prometheus.Counter
    private let sendsWritten: Prometheus.Counter
    private let tokenReloadFailures: Prometheus.Counter
    private let storedBoards: Prometheus.Gauge
    /// Event streams open now (`GET /api/boards/{id}/events`), kept by the streams themselves.
    let eventStreams: Meter
    /// Requests per route and their durations, recorded as the router answers them.
    let routes: HTTPRouteMetrics
    private let process: ProcessMetrics
    /// The traffic reading last copied in: counters only ever grow by the difference.
    private let copied = Mutex(TrafficCounters.Reading.zero)

    /// The HELP of the families recorded through `factory` (swift-metrics) by the server
    /// itself; the hub's are `Hub.metricHelp`.
    static let help = [
        "corkboard_event_streams": "Event streams (GET /api/boards/{id}/events) open now; each is also one of the connections."
    ]

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Commit-to-broadcast is a few milliseconds on a healthy disk: buckets from 0.5 ms.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .milliseconds(2500),
        ]
        self.factory = DescribedMetricsFactory(base: factory, help: Hub.metricHelp.merging(Self.help) { hub, _ in hub })
        func describe(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "corkboard", metricName: name, unitName: unit, helpText: help)
        }
        connections = registry.makeGauge(descriptor: describe("connections", "", "Open TCP connections (HTTP and WebSocket)."))
        accepted = registry.makeCounter(descriptor: describe("connections_accepted", "total", "TCP connections accepted."))
        bytesIn = registry.makeCounter(descriptor: describe("bytes_received", "total", "Bytes read from clients."))
        bytesOut = registry.makeCounter(descriptor: describe("bytes_sent", "total", "Bytes written to clients."))
        slowConsumersDropped = registry.makeCounter(
            descriptor: describe(
                "slow_consumers_dropped", "total", "Clients disconnected because their unread output reached its bound."))
        transportFailures = registry.makeCounter(
            descriptor: describe(
                "tls_failures", "total", "Connections closed because TLS failed (mostly handshakes: plain HTTP, old versions, untrusted certificate)."))
        refused = registry.makeCounter(
            descriptor: describe(
                "connections_refused", "total", "Connections answered 503 and closed because a connection limit was reached."))
        writeCalls = registry.makeCounter(
            descriptor: describe("socket_writes", "total", "System calls (sendmsg) that wrote to clients."))
        sendsWritten = registry.makeCounter(
            descriptor: describe(
                "sends_written", "total",
                "Sends (WebSocket frames, pieces of responses; TLS records with TLS) written to clients; per socket write, how many share one."))
        tokenReloadFailures = registry.makeCounter(
            descriptor: describe(
                "token_reload_failures", "total", "Reloads (SIGHUP) that kept the previous tokens because the token file or secret file was refused."))
        storedBoards = registry.makeGauge(
            descriptor: describe("boards_stored", "", "Boards the store holds, every node's (read at each scrape; kept when the store does not answer)."))
        eventStreams = Meter(label: "corkboard_event_streams", factory: self.factory)
        registry.makeGauge(
            descriptor: describe("build_info", "", "Always 1: the version of this server, and the Swift it was built with, in its labels."),
            labels: [("version", CorkboardVersion.current), ("swift", CorkboardVersion.swift)]
        ).set(Int64(1))
        process = ProcessMetrics(registry: registry)
        routes = HTTPRouteMetrics(registry: registry)
    }

    /// The count of boards from the store's listing, made just before a scrape.
    func recordStoredBoards(_ count: Int) {
        storedBoards.set(Int64(count))
    }

    /// A reload kept the previous tokens (the reason is in the log).
    func tokenReloadFailed() { tokenReloadFailures.increment() }

    /// The Prometheus text exposition, with the traffic figures brought up to date.
    func render(traffic: TrafficCounters) -> [UInt8] {
        copied.withLock { copied in
            let now = traffic.reading
            connections.set(Int64(now.open))
            accepted.increment(by: Int64(now.accepted - copied.accepted))
            bytesIn.increment(by: Int64(now.bytesIn - copied.bytesIn))
            bytesOut.increment(by: Int64(now.bytesOut - copied.bytesOut))
            slowConsumersDropped.increment(by: Int64(now.slowConsumersDropped - copied.slowConsumersDropped))
            transportFailures.increment(by: Int64(now.transportFailures - copied.transportFailures))
            refused.increment(by: Int64(now.refused - copied.refused))
            writeCalls.increment(by: Int64(now.writeCalls - copied.writeCalls))
            sendsWritten.increment(by: Int64(now.sendsWritten - copied.sendsWritten))
            copied = now
            process.update()
        }
        return registry.emitToBuffer()
    }
}
