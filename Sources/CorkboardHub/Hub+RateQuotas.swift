/// Where an HTTP caller stands against each operation rate, for the `RateLimit-Policy` and
/// `RateLimit` fields of a 429 (docs/protocol.md#conventions): a token bucket of `burst`
/// refilled at `perSecond` is told as a quota of `burst` units per `burst / perSecond` seconds.
public struct RateQuota: Sendable, Hashable {
    /// The policy's name: `ops`, or `op-bytes`.
    public var name: String
    /// `requests`, or `content-bytes` (the draft's quota units).
    public var unit: String
    /// Units a full bucket holds.
    public var quota: Int
    /// Seconds an empty bucket takes to fill.
    public var window: Int
    /// Units the caller may spend now.
    public var remaining: Int
    /// Seconds until the caller's bucket is full again.
    public var reset: Int
}

extension Hub {
    /// The HTTP operation rates `caller` is held to and what is left of each; none without limits.
    public func httpOperationQuotas(caller: String) -> [RateQuota] {
        var quotas: [RateQuota] = []
        if let rates = httpOperationRates { quotas.append(Self.quota("ops", unit: "requests", rates, caller, now: clock.now().uptimeNanoseconds)) }
        if let rates = httpOperationByteRates {
            quotas.append(Self.quota("op-bytes", unit: "content-bytes", rates, caller, now: clock.now().uptimeNanoseconds))
        }
        return quotas
    }

    private static func quota(_ name: String, unit: String, _ rates: RateTable, _ caller: String, now: UInt64) -> RateQuota {
        let limit = rates.limit
        let tokens = rates.tokens(caller, now: now)
        return RateQuota(
            name: name, unit: unit, quota: Int(limit.burst.rounded(.down)),
            window: max(1, Int((limit.burst / limit.perSecond).rounded(.up))), remaining: max(0, Int(tokens.rounded(.down))),
            reset: max(0, Int(((limit.burst - tokens) / limit.perSecond).rounded(.up))))
    }
}
