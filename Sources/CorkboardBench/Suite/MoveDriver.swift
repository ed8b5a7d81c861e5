import CorkboardModel
import Dispatch
import Synchronization

/// Keeps moves in flight on one or more boards and collects their answers.
///
/// Each slot owns one item (`x0`, `x1`, …) of its board and moves it to the end of the other
/// collection (`a` ↔ `b`) each time: a slot's item is moved by nobody else, so every move is a
/// real change and is sequenced (never a noop), on any server. A slot sends its next move when
/// the previous one is answered, from its own member or, for a slot without one, from a random
/// member of the board (the fan-out scenario's "moves from random clients").
final class MoveDriver: MoveAnswerListener, Sendable {
    struct Slot {
        let item: String
        let board: String
        /// The member that always sends this slot's moves; nil: a random one of `senders`.
        let sender: BenchMember?
        var inSecondCollection = false
    }

    struct Sample {
        let seq: Int
        let board: String
        let sentAt: UInt64
        let answeredAt: UInt64
    }

    struct Outcome {
        var samples: [Sample] = []
        var noops = 0
        var rejections: [String: Int] = [:]
        var firstSent: UInt64 = 0
        var lastAnswered: UInt64 = 0
        /// The member that sent each committed seq.
        var senders: [Int: Int] = [:]

        /// Committed moves from the first send to the last answer.
        var committedPerSecond: Double {
            Double(samples.count) / (Double(lastAnswered - firstSent) / 1e9)
        }

        /// From sending each committed move to its sender's `committed`.
        var commitLatency: LatencySummary {
            LatencySummary(nanoseconds: samples.map { $0.answeredAt > $0.sentAt ? $0.answeredAt - $0.sentAt : 0 })
        }
    }

    private struct State {
        var slots: [Slot]
        var senders: [BenchMember] = []
        var random: SplitMix64
        var remaining = 0
        var sent = 0
        var outstanding: [String: (slot: Int, sentAt: UInt64)] = [:]
        var outcome = Outcome()
    }

    private let state: Mutex<State>
    private let finished = DispatchSemaphore(value: 0)

    init(slots: [Slot] = [], seed: UInt64) {
        state = Mutex(State(slots: slots, random: SplitMix64(seed: seed)))
    }

    /// Sets the slots when they need members that need this driver first. Before `run`.
    func assign(_ slots: [Slot]) {
        state.withLock { $0.slots = slots }
    }

    /// Sends `moves` moves, every slot keeping one outstanding, and waits for all the answers.
    func run(moves: Int, senders: [BenchMember], timeout: Double) throws -> Outcome {
        let slots = state.withLock { state -> Int in
            state.senders = senders
            state.remaining = moves
            state.outcome = Outcome()
            state.outcome.firstSent = DispatchTime.now().uptimeNanoseconds
            return state.slots.count
        }
        for slot in 0..<slots { sendNext(from: slot) }
        guard finished.wait(timeout: .now() + timeout) == .success else {
            let (left, outstanding) = state.withLock { ($0.remaining, $0.outstanding.count) }
            throw BenchTarget.Failure(description: "moves unanswered after \(Int(timeout)) s: \(outstanding) outstanding, \(max(0, left)) not sent")
        }
        return state.withLock { $0.outcome }
    }

    func member(_ member: BenchMember, received answer: MoveAnswer, opId: String, at time: UInt64) {
        let slot = state.withLock { state -> Int? in
            guard let (slot, sentAt) = state.outstanding.removeValue(forKey: opId) else { return nil }
            state.outcome.lastAnswered = max(state.outcome.lastAnswered, time)
            switch answer {
            case .committed(let seq):
                state.slots[slot].inSecondCollection.toggle()
                state.outcome.samples.append(Sample(seq: seq, board: state.slots[slot].board, sentAt: sentAt, answeredAt: time))
                state.outcome.senders[seq] = member.number
            case .noop:
                state.outcome.noops += 1
            case .rejected(let code):
                state.outcome.rejections[code, default: 0] += 1
            }
            return slot
        }
        if let slot { sendNext(from: slot) }
    }

    private func sendNext(from slot: Int) {
        let next = state.withLock { state -> (BenchMember, String, String)? in
            guard state.remaining > 0 else {
                if state.outstanding.isEmpty { finished.signal() }
                return nil
            }
            guard let sender = state.slots[slot].sender ?? state.senders.randomElement(using: &state.random) else { return nil }
            state.remaining -= 1
            state.sent += 1
            let opId = "bench-\(state.sent)"
            let item = state.slots[slot]
            let destination = item.inSecondCollection ? "a" : "b"
            let baseSeq = sender.log.withLock { $0.nextSeq - 1 }
            let move =
                #"{"type":"move","opId":"\#(opId)","baseSeq":\#(baseSeq),"sources":["\#(item.item)"],"#
                + #""destination":{"collection":"\#(destination)","before":null}}"#
            state.outstanding[opId] = (slot, DispatchTime.now().uptimeNanoseconds)
            return (sender, move, opId)
        }
        if let (sender, move, opId) = next { sender.send(move: move, opId: opId) }
    }
}
