import Dispatch
import Glibc
import Synchronization

public enum ProcessSignals {
    /// A write to a socket whose peer has gone must fail with EPIPE, not kill the process.
    /// (`sendmsg` with MSG_NOSIGNAL covers our own writes; this covers everything else.)
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Delivers `signals` to `handler` on `queue` instead of their default action, for as long
    /// as the process runs. Pass a queue of your own, not the main queue: work put on the main
    /// queue before `dispatchMain()` takes over was now and then never run (below).
    ///
    /// Not with `DispatchSource.makeSignalSource`: with it, a SIGTERM sent right after
    /// `corkboard serve` said "listening" now and then left the server running without a word,
    /// 2 to 4 times in 100 (the browser tests waited 20 s for it, twice in a day); a stack
    /// showed only Dispatch's manager thread in epoll_wait and the main thread in sigsuspend.
    /// On Linux such a source depends on how the kernel picks the thread a process-wide signal
    /// goes to, and ignores it (SIG_IGN) everywhere else. A plain handler runs on whichever
    /// thread the kernel picks; it writes the signal's number into a pipe that a read source
    /// drains (the self-pipe pattern: write(2) is async-signal-safe), and `handler` runs on
    /// `queue`. With both (this and a queue of its own), 0 of 550 such starts hung.
    public static func observe(_ signals: [Int32], on queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        let pipe = SignalPipe.shared
        for number in signals {
            pipe.register(number, queue: queue, handler: handler)
            signal(number, writeToSignalPipe)
        }
    }
}

/// The pipe's write end, for the signal handler: set once, before any handler is installed,
/// and never changed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The signal handler: only async-signal-safe calls (write), errno kept for the interrupted code.
private func writeToSignalPipe(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// The pipe the signal handler writes to, and who wants which signal.
/// `@unchecked Sendable`: `source` is set in `init` and only resumed there; `handlers` is a Mutex.
private final class SignalPipe: @unchecked Sendable {
    static let shared = SignalPipe()

    private typealias Handler = (queue: DispatchQueue, run: @Sendable (Int32) -> Void)
    private let handlers = Mutex<[Int32: Handler]>([:])
    private let source: DispatchSourceRead

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("no pipe for signals: \(String(cString: strerror(errno)))") }
        for end in ends {
            // Non-blocking: a flood of signals never blocks the handler on a full pipe (one
            // byte per signal is plenty: a second SIGTERM while the first is handled is dropped
            // only if 64 KiB of them are waiting). Close-on-exec: children do not inherit it.
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd = ends[1]
        let readEnd = ends[0]
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: DispatchQueue(label: "corkboard.signals"))
        // The pipe lives as long as the process (`shared`): capturing self is no cycle to mind.
        source.setEventHandler { [self] in
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(readEnd, &bytes, bytes.count)
                guard count > 0 else { return }
                for byte in bytes[..<count] {
                    let number = Int32(byte)
                    guard let handler = self.handlers.withLock({ $0[number] }) else { continue }
                    handler.queue.async { handler.run(number) }
                }
            }
        }
        source.resume()
    }

    func register(_ number: Int32, queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        handlers.withLock { $0[number] = (queue, handler) }
    }
}
