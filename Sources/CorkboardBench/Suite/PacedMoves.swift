import CorkboardModel
import Dispatch
import Foundation
import Synchronization

/// Live traffic at a steady rate, whatever happens to the server: every tick one slot (an
/// item of one board, as in `MoveDriver`) sends its next move from a member of its board that
/// is connected at that moment, unless its previous move is still unanswered. A move whose
/// answer never comes (the server went down meanwhile) frees its slot after `abandonAfter`.
final class PacedMoves: MoveAnswerListener, Sendable {
    struct Slot {
        let item: String
        let board: String
        /// The members of `board`; the sender is a random connected one.
        let members: [ResumingMember]
        var inSecondCollection = false
        var outstandingSince: UInt64?
    }

    struct Sample {
        let seq: Int
        let board: String
        let sentAt: UInt64
        let answeredAt: UInt64
    }

    private struct State {
        var slots: [Slot]
        var random: SplitMix64
        var next = 0
        var sent = 0
        var outstanding: [String: (slot: Int, sentAt: UInt64)] = [:]
        var samples: [Sample] = []
        var noops = 0
        var rejections: [String: Int] = [:]
    }

    private let state: Mutex<State>
    private let running = Atomic<Bool>(false)
    private let stopped = DispatchGroup()
    private let abandonAfter: UInt64 = 5_000_000_000

    init(seed: UInt64) {
        state = Mutex(State(slots: [], random: SplitMix64(seed: seed)))
    }

    /// The slots, set once their members exist (they need this listener first).
    func assign(_ slots: [Slot]) { state.withLock { $0.slots = slots } }

    /// Sends `rate` moves a second (over all slots) until `stop`.
    func start(rate: Double) {
        guard !running.exchange(true, ordering: .relaxed) else { return }
        stopped.enter()
        Thread { [self] in
            defer { stopped.leave() }
            let interval = 1 / max(rate, 0.1)
            while running.load(ordering: .relaxed) {
                sendNext()
                Thread.sleep(forTimeInterval: interval)
            }
        }.start()
    }

    /// Stops sending and waits (at most `timeout` seconds) for the answers still due.
    func stop(timeout: Double = 10) {
        guard running.exchange(false, ordering: .relaxed) else { return }
        stopped.wait()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while state.withLock({ !$0.outstanding.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        forgetUnanswered()
    }

    /// Frees the slots of moves whose answers a stopped server took with it (if they were
    /// committed, the resumes replay them; the next move of such a slot may be a noop).
    func forgetUnanswered() {
        state.withLock { state in
            state.outstanding.removeAll()
            for index in state.slots.indices { state.slots[index].outstandingSince = nil }
        }
    }

    var samples: [Sample] { state.withLock { $0.samples } }
    var noops: Int { state.withLock { $0.noops } }
    var rejections: [String: Int] { state.withLock { $0.rejections } }

    func member(_ member: BenchMember, received answer: MoveAnswer, opId: String, at time: UInt64) {
        state.withLock { state in
            guard let (slot, sentAt) = state.outstanding.removeValue(forKey: opId) else { return }
            state.slots[slot].outstandingSince = nil
            switch answer {
            case .committed(let seq):
                state.slots[slot].inSecondCollection.toggle()
                state.samples.append(Sample(seq: seq, board: state.slots[slot].board, sentAt: sentAt, answeredAt: time))
            case .noop:
                // The item already stood where it was sent (a move lost in a restart had
                // landed): the next goes the other way.
                state.slots[slot].inSecondCollection.toggle()
                state.noops += 1
            case .rejected(let code):
                state.rejections[code, default: 0] += 1
            }
        }
    }

    private func sendNext() {
        let now = DispatchTime.now().uptimeNanoseconds
        let next = state.withLock { state -> (LeanMember, String, String)? in
            guard !state.slots.isEmpty else { return nil }
            let index = state.next % state.slots.count
            state.next += 1
            if let since = state.slots[index].outstandingSince {
                guard now - since > abandonAfter else { return nil }
                state.outstanding = state.outstanding.filter { $0.value.slot != index }
            }
            let slot = state.slots[index]
            // A few random picks: during a storm most members may still be away.
            var sender: LeanMember?
            for _ in 0..<16 where sender == nil {
                sender = slot.members.randomElement(using: &state.random)?.current
            }
            guard let sender else { return nil }
            state.sent += 1
            let opId = "live-\(state.sent)"
            let baseSeq = sender.log.withLock { $0.nextSeq - 1 }
            let move =
                #"{"type":"move","opId":"\#(opId)","baseSeq":\#(baseSeq),"sources":["\#(slot.item)"],"#
                + #""destination":{"collection":"\#(slot.inSecondCollection ? "a" : "b")","before":null}}"#
            state.outstanding[opId] = (index, now)
            state.slots[index].outstandingSince = now
            return (sender, move, opId)
        }
        if let (sender, move, opId) = next { sender.send(move: move, opId: opId) }
    }
}
