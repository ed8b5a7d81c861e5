import CorkboardModel

/// Generates the benchmark's requests the way clients a little behind would send them.
///
/// Offsets must be in range for the board at the base seq, so the workload keeps each
/// collection's length for the last `maximumLag` seqs; anchors are taken from the
/// current board, as a client whose view is only slightly stale would pick them.
struct Workload {
    let maximumLag: Int
    let collectionIDs: [CollectionID]
    /// Collection lengths at `seq - k` are at `countsBySeq[k]`, newest first.
    private var countsBySeq: [[Int]]
    private var allItems: [ItemID]

    init(engine: BoardEngine, maximumLag: Int) {
        self.maximumLag = maximumLag
        collectionIDs = engine.collectionIDs
        countsBySeq = [collectionIDs.map { engine.itemCount(of: $0)! }]
        allItems = engine.board.allItemIDs
    }

    private func baseLag(_ engine: BoardEngine, using random: inout SplitMix64) -> Int {
        Int.random(in: 0...min(maximumLag, engine.seq, countsBySeq.count - 1), using: &random)
    }

    mutating func anchorMove(opId: String, engine: BoardEngine, using random: inout SplitMix64) -> OperationRequest {
        let lag = baseLag(engine, using: &random)
        let sources = (0..<Int.random(in: 1...3, using: &random)).map { _ in allItems.randomElement(using: &random)! }
        let destination = collectionIDs.randomElement(using: &random)!
        let count = engine.itemCount(of: destination)!
        let before = engine.itemID(at: Int.random(in: 0...count, using: &random), in: destination)
        return OperationRequest(
            opId: opId, baseSeq: engine.seq - lag,
            .move(sources: sources, destination: Destination(collection: destination, before: before)))
    }

    mutating func offsetsMove(opId: String, engine: BoardEngine, using random: inout SplitMix64) -> OperationRequest {
        let lag = baseLag(engine, using: &random)
        let counts = countsBySeq[lag]
        var source = Int.random(in: 0..<collectionIDs.count, using: &random)
        while counts[source] == 0 { source = (source + 1) % collectionIDs.count }
        let target = Bool.random(using: &random) ? source : Int.random(in: 0..<collectionIDs.count, using: &random)
        let offsets = Set(
            (0..<Int.random(in: 1...3, using: &random)).map { _ in
                Int.random(in: 0..<counts[source], using: &random)
            })
        return OperationRequest(
            opId: opId, baseSeq: engine.seq - lag,
            .moveByOffsets(
                collection: collectionIDs[source], fromOffsets: offsets.sorted(),
                toOffset: Int.random(in: 0...counts[target], using: &random),
                toCollection: collectionIDs[target]))
    }

    /// Notes the lengths after a committed event (moves only change lengths).
    mutating func record(_ event: CommittedEvent, engine: BoardEngine) {
        countsBySeq.insert(collectionIDs.map { engine.itemCount(of: $0)! }, at: 0)
        if countsBySeq.count > maximumLag + 1 { countsBySeq.removeLast() }
    }

    /// A noop takes no seq, so the length history does not move.
    mutating func recordNoop(engine: BoardEngine) {}
}
