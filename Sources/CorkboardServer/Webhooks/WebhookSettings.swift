/// How the server delivers webhooks (docs/integrations.md#webhooks).
public struct WebhookSettings: Sendable, Hashable {
    /// The wait between attempts of a failing message (`--webhook-retry-max` caps it).
    public var backoff = WebhookBackoff.standard
    /// Seconds between looks at the store for new events and endpoints.
    public var pollInterval = 0.5
    /// Seconds an attempt may take, connecting included.
    public var attemptTimeout = 10.0
    /// Seconds the delivery lease lasts unrenewed: how soon another node takes over from a dead one.
    public var leaseSeconds = 10.0

    public init() {}
}
