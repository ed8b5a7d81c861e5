import Synchronization

/// The answer a member received to a move it sent.
enum MoveAnswer: Sendable {
    case committed(seq: Int)
    case noop
    case rejected(code: String)
}

/// Told when a member has the answer to a move it sent. Called on the member's reading thread.
protocol MoveAnswerListener: AnyObject, Sendable {
    func member(_ member: BenchMember, received answer: MoveAnswer, opId: String, at time: UInt64)
}

/// A bench client on a board, whichever way it reads: what the scenarios and the move driver need.
protocol BenchMember: AnyObject, Sendable {
    var number: Int { get }
    var log: Mutex<MemberLog> { get }
    /// Sends `move` (a complete message) whose opId is `opId`. Any thread.
    func send(move: String, opId: String)
}

/// Where a client resumes from: the board's epoch and the last seq it has (the hello's `resume`).
struct ResumePoint: Sendable, Equatable {
    var epoch: String
    var seq: Int
}

/// What a member received since its welcome: when each sequenced event arrived, and whether
/// the seqs came exactly once and in order.
struct MemberLog {
    /// The seq the welcome reported; arrivals start after it.
    var welcomeSeq = 0
    /// Arrival time (uptime nanoseconds) of seq `welcomeSeq + 1 + i` at index `i`; 0 for a missing one.
    var arrivals: [UInt64] = []
    /// Every message since the welcome, sequenced or not.
    var received = 0
    /// The bytes of those messages (their text, without the frames' headers).
    var receivedBytes = 0
    /// Of those, the bytes of membership news (`peers`, `peer.joined`, `peer.left`; not `peers.page`
    /// answers, which only come when asked and the bench never asks).
    var membershipBytes = 0
    /// Others' drag updates (`drag` starts and `drag.over` placeholder moves) since the welcome.
    var drags = 0
    /// Presence messages (single drag messages or `drags` batches) since the welcome, and their bytes.
    var presenceMessages = 0
    var presenceBytes = 0
    /// Sequenced events that came again (at or below a seq already had), since the welcome.
    var duplicates = 0
    var closed: String?
    /// The board's epoch and whether the server resumed from the hello's `resume` (the
    /// welcome's `epoch` and `resumed`).
    var epoch: String?
    var resumed = false
    var nextSeq: Int { welcomeSeq + 1 + arrivals.count }

    /// When `seq` arrived, if it did.
    func arrival(of seq: Int) -> UInt64? {
        let index = seq - welcomeSeq - 1
        guard index >= 0, index < arrivals.count, arrivals[index] != 0 else { return nil }
        return arrivals[index]
    }

    /// Notes a sequenced event: in order, again (a duplicate), or after a gap (the missing
    /// ones stay 0).
    mutating func record(seq: Int, at time: UInt64) {
        let expected = nextSeq
        if seq < expected {
            duplicates += 1
            return
        }
        if seq > expected { arrivals.append(contentsOf: repeatElement(0, count: seq - expected)) }
        arrivals.append(time)
    }
}
