import Dispatch
import Synchronization

/// A bench client that stays on its board across server restarts: each connection is a
/// `LeanMember`, and each after the first says hello with `resume` at the last seq the one
/// before it had. What it keeps of every connection is enough to check, at the end, that the
/// board's events came gap-free and exactly once over all of them.
///
/// Confinement: `connections` is behind a mutex (the reconnecting workers add to it, the
/// scenario and the traffic driver read it).
final class ResumingMember: Sendable {
    /// One connection and when its welcome came (uptime nanoseconds).
    struct Connection {
        let member: LeanMember
        let welcomedAt: UInt64
    }

    /// What the connections add up to, for one board whose last seq is `finalSeq`.
    struct Delivery: Equatable {
        /// Seqs never received (holes inside a connection, between two, or before `finalSeq`).
        var gaps = 0
        /// Seqs received again.
        var duplicates = 0
        /// Reconnections the server answered with a snapshot instead of a replay.
        var snapshots = 0
    }

    let number: Int
    let board: String
    private let listener: MoveAnswerListener?
    private let connections = Mutex<[Connection]>([])

    init(number: Int, board: String, listener: MoveAnswerListener?) {
        self.number = number
        self.board = board
        self.listener = listener
    }

    /// The connection in use, if it is open.
    var current: LeanMember? {
        connections.withLock { $0.last.map(\.member) }.flatMap { $0.isClosed ? nil : $0 }
    }

    var history: [Connection] { connections.withLock { $0 } }

    /// Connects (resuming from the last connection's seq, if any) and hands the socket to
    /// `receivers`. Blocking; throws when the server refuses or is not there.
    func connect(host: String, port: UInt16, receivers: EpollReceivers, timeout: Double = 60) throws {
        let resume = connections.withLock { $0.last }.flatMap { last in
            last.member.log.withLock { log in log.epoch.map { ResumePoint(epoch: $0, seq: log.nextSeq - 1) } }
        }
        let member = try LeanMember(
            number: number, host: host, port: port, board: board, listener: listener, resume: resume, timeout: timeout)
        let welcomedAt = DispatchTime.now().uptimeNanoseconds
        connections.withLock { $0.append(Connection(member: member, welcomedAt: welcomedAt)) }
        receivers.add(member)
    }

    /// The last seq received so far (over every connection).
    var lastSeq: Int { connections.withLock { $0.last }?.member.log.withLock { $0.nextSeq - 1 } ?? 0 }

    /// Gaps, repeats and snapshots over every connection, given the board's last seq.
    func delivery(finalSeq: Int) -> Delivery {
        var delivery = Delivery()
        var previousLast: Int?
        for connection in history {
            let log = connection.member.log.withLock { $0 }
            if let previousLast {
                if !log.resumed {
                    delivery.snapshots += 1
                } else if log.welcomeSeq > previousLast {
                    delivery.gaps += log.welcomeSeq - previousLast
                } else if log.welcomeSeq < previousLast {
                    delivery.duplicates += previousLast - log.welcomeSeq
                }
            }
            delivery.gaps += log.arrivals.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
            delivery.duplicates += log.duplicates
            previousLast = log.nextSeq - 1
        }
        delivery.gaps += max(0, finalSeq - (previousLast ?? finalSeq))
        return delivery
    }

    /// When `seq` reached this member live: by a connection already welcomed at `sentAt`.
    func liveArrival(of seq: Int, sentAt: UInt64) -> UInt64? {
        for connection in history.reversed() where connection.welcomedAt <= sentAt {
            return connection.member.log.withLock { $0.arrival(of: seq) }
        }
        return nil
    }
}
