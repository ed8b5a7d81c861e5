/// Told once, after the connection's handler, that a connection has closed: how the server that
/// accepted it leaves its registry and gives its admission back.
///
/// An object the connection holds weakly, one per server rather than a closure per connection:
/// a closure's context, made at every accept and kept for the connection's life, was one of
/// the larger parts of an idle member (docs/benchmarks.md, "Idle members").
public protocol ConnectionCloseObserver: AnyObject, Sendable {
    func connection(_ connection: Connection, didCloseWith reason: Connection.CloseReason)
}
