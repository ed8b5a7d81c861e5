import Prometheus

/// The webhooks' figures in the server's registry (`GET /metrics`): attempts by outcome, and
/// the messages waiting over every endpoint.
final class WebhookMetrics: Sendable {
    private let delivered: Prometheus.Counter
    private let refused: Prometheus.Counter
    private let unreachable: Prometheus.Counter
    private let backlog: Prometheus.Gauge

    init(registry: PrometheusCollectorRegistry) {
        func attempts(_ outcome: String) -> Prometheus.Counter {
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "corkboard", metricName: "webhook_attempts", unitName: "total",
                    helpText: "Webhook delivery attempts, by outcome: delivered (2xx), refused (another status), unreachable (no answer)."),
                labels: [("outcome", outcome)])
        }
        delivered = attempts("delivered")
        refused = attempts("refused")
        unreachable = attempts("unreachable")
        backlog = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "corkboard", metricName: "webhook_backlog", unitName: "",
                helpText: "Committed events not yet delivered, over every webhook endpoint (as of the delivering node's last look)."))
    }

    func attempted(_ outcome: WebhookAttempts.Outcome) {
        switch outcome {
        case .answered(let status) where (200...299).contains(status): delivered.increment()
        case .answered: refused.increment()
        case .unreachable: unreachable.increment()
        }
    }

    func setBacklog(_ events: Int) { backlog.set(Double(events)) }
}
