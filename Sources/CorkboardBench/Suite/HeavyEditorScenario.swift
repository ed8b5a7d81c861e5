import CorkboardModel
import Dispatch
import Foundation
import Sockets
import Synchronization

/// Editors sending big `update`s to one board while a well-behaved client moves cards on
/// another (issue #20): what the byte-heavy editors cost the server's memory, and the good
/// client's commit latency meanwhile. Each editor offers `updatesPerSecond` updates of
/// `dataBytes` of data for `seconds`; the server takes what its byte rate and history budget
/// allow and answers the rest `rate-limited`.
public struct HeavyEditorScenario {
    public struct Configuration: Sendable {
        public var url: String?
        /// Arguments of a server the scenario starts itself (ignored with `url`).
        public var serverArguments: [String] = []
        public var editors = 3
        public var updatesPerSecond = 100.0
        public var dataBytes = 60_000
        public var seconds = 15.0
        public var clientThreads = 2
        public init() {}
    }

    public struct Result: Sendable {
        public var offered: Int
        /// Updates the heavy board committed (the others were answered `rate-limited`).
        public var committed: Int
        /// Editors the server dropped (their `closed` reason), expected none.
        public var dropped: [String]
        public var goodMoves: Int
        public var goodLatency: LatencySummary
        public var residentBefore: Int?
        public var residentPeak: Int?
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    public func run(progress: (String) -> Void) throws -> Result {
        let target = try BenchTarget(url: configuration.url, serverArguments: ["--no-demo"] + configuration.serverArguments)
        let loops = IOLoopGroup(count: 1)
        let receivers = EpollReceivers(threads: configuration.clientThreads)
        defer { receivers.stop() }
        let heavyBoard = SuiteBoard.freshID("heavy")
        let goodBoard = SuiteBoard.freshID("good")
        try SuiteBoard.create(id: heavyBoard, movers: configuration.editors, target: target, loop: loops.next())
        try SuiteBoard.create(id: goodBoard, movers: 1, target: target, loop: loops.next())
        let editors = try LeanMember.joinAll(
            0..<configuration.editors, target: target, board: { _ in heavyBoard }, listener: nil, receivers: receivers)
        let driver = MoveDriver(seed: 1)
        let good = try LeanMember.joinAll(
            configuration.editors..<configuration.editors + 1, target: target, board: { _ in goodBoard }, listener: driver,
            receivers: receivers)
        defer { receivers.retire(editors + good) }
        driver.assign([MoveDriver.Slot(item: "x0", board: goodBoard, sender: good[0])])
        let residentBefore = target.serverResidentBytes
        progress(
            "\(configuration.editors) editors offering \(Int(configuration.updatesPerSecond)) updates/s of \(configuration.dataBytes) bytes each for \(configuration.seconds) s; a good client moving on another board"
        )

        var peak = residentBefore ?? 0
        let offered = Atomic<Int>(0)
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = started + UInt64(configuration.seconds * 1e9)
        let blob = String(repeating: "d", count: configuration.dataBytes)
        let senders = DispatchGroup()
        let interval = 1 / configuration.updatesPerSecond
        let most = Int(configuration.updatesPerSecond * configuration.seconds) + 1
        for (number, editor) in editors.enumerated() {
            senders.enter()
            Thread {
                defer { senders.leave() }
                var sent = 0
                // Bounded by time and by count.
                while DispatchTime.now().uptimeNanoseconds < deadline && sent < most {
                    let update =
                        #"{"type":"update","opId":"heavy-\#(number)-\#(sent)","baseSeq":0,"item":"x\#(number)","label":"v\#(sent)","data":{"blob":"\#(blob)"}}"#
                    editor.send(move: update, opId: "heavy-\(number)-\(sent)")
                    sent += 1
                    offered.add(1, ordering: .relaxed)
                    Thread.sleep(forTimeInterval: interval)
                }
            }.start()
        }
        // The good client moves back to back for as long as the editors send; the server's
        // memory is read between rounds.
        var samples: [MoveDriver.Sample] = []
        while DispatchTime.now().uptimeNanoseconds < deadline {
            samples += try driver.run(moves: 20, senders: [], timeout: 60).samples
            peak = max(peak, target.serverResidentBytes ?? 0)
        }
        senders.wait()
        Thread.sleep(forTimeInterval: 2)
        peak = max(peak, target.serverResidentBytes ?? 0)
        // Every editor sees every commit of the heavy board.
        let logs = editors.map { $0.log.withLock { $0 } }
        let latency = LatencySummary(nanoseconds: samples.map { $0.answeredAt > $0.sentAt ? $0.answeredAt - $0.sentAt : 0 })
        return Result(
            offered: offered.load(ordering: .relaxed), committed: logs.map(\.arrivals.count).max() ?? 0,
            dropped: logs.compactMap(\.closed), goodMoves: samples.count, goodLatency: latency,
            residentBefore: residentBefore, residentPeak: peak)
    }
}
