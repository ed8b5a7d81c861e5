/// What a connection tells the protocol code on top of it. Every call arrives on the connection's loop.
public protocol ConnectionHandler: AnyObject {
    /// Bytes just read; valid only during the call.
    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer)
    /// The peer finished sending (FIN). The default closes once pending output is written.
    func connectionDidReadEOF(_ connection: Connection)
    /// Everything queued has been written (after the queue was non-empty).
    func connectionDidDrain(_ connection: Connection)
    /// The server is shutting down gracefully. The default closes once pending output is written;
    /// a protocol with a request in flight finishes it first.
    func connectionShouldShutDown(_ connection: Connection)
    /// Called once, when nothing more can be sent: after the descriptor was closed, or when a
    /// lingering close starts (the descriptor is closed up to `Limits.lingerTime` later).
    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason)
}

extension ConnectionHandler {
    public func connectionDidReadEOF(_ connection: Connection) { connection.close() }
    public func connectionDidDrain(_ connection: Connection) {}
    public func connectionShouldShutDown(_ connection: Connection) { connection.close() }
}
