import HTTP
import Prometheus
import Synchronization

/// Requests per route (`GET /metrics`): `corkboard_http_requests_total{method,route,status}` and
/// `corkboard_http_request_duration_seconds{method,route}`, from what the router tells of each
/// answer (`RouteObservation`). The route is the router's pattern (`/api/boards/{id}`), never
/// the raw path, so a client cannot grow the series by asking for new paths: they are at most
/// the routes × their methods × the statuses they answer.
final class HTTPRouteMetrics: Sendable {
    static let requestsName = "corkboard_http_requests_total"
    static let durationName = "corkboard_http_request_duration_seconds"
    static let requestsHelp =
        "HTTP requests answered, by method, route (the router's pattern; unmatched: static files and 404s) and status (101: WebSocket upgrades)."
    static let durationHelp =
        "Seconds from the router taking an HTTP request to its answer being handed to the connection (an event stream's or upgrade's head), by method and route."
    /// From 1 ms (a static file, a health check) to 10 s (a board of hundreds of MB counted first).
    static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    private let registry: PrometheusCollectorRegistry
    /// The series made so far: the registry would find them too, but under its own lock and
    /// after building their labels' key; this is one lookup per request.
    private let counters = Mutex<[String: Counter]>([:])
    private let histograms = Mutex<[String: DurationHistogram]>([:])

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    func record(_ observation: RouteObservation) {
        let routeKey = observation.method + " " + observation.route
        let counter = counters.withLock { counters in
            let key = routeKey + " " + String(observation.status)
            if let counter = counters[key] { return counter }
            let made = registry.makeCounter(
                descriptor: .named(Self.requestsName, help: Self.requestsHelp),
                labels: [("method", observation.method), ("route", observation.route), ("status", String(observation.status))])
            counters[key] = made
            return made
        }
        counter.increment()
        let histogram = histograms.withLock { histograms in
            if let histogram = histograms[routeKey] { return histogram }
            let made = registry.makeDurationHistogram(
                descriptor: .named(Self.durationName, help: Self.durationHelp),
                labels: [("method", observation.method), ("route", observation.route)], buckets: Self.buckets)
            histograms[routeKey] = made
            return made
        }
        histogram.recordNanoseconds(Int64(observation.seconds * 1e9))
    }
}
