import Dispatch
import Glibc

public enum ProcessSignals {
    /// A write to a socket whose peer has gone must fail with EPIPE, not kill the process.
    /// (`sendmsg` with MSG_NOSIGNAL covers our own writes; this covers everything else.)
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Delivers `signals` to `handler` on `queue` instead of their default action.
    /// Keep the returned sources alive for as long as the handling should last.
    public static func observe(
        _ signals: [Int32], on queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void
    ) -> [DispatchSourceSignal] {
        signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }
}
