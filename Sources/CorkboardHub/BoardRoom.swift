import CorkboardModel
import CorkboardStore
import CorkboardWire
import Dispatch

typealias MemberKey = ObjectIdentifier

/// One board's room: its sequencer (the `BoardEngine`), its members, and its group commit.
///
/// A coordinator over parts it owns (`CommitPipeline`, `RoomMembers`, `RoomMembership`,
/// `PeerListGathering`, `RoomDrags`, `DragBatch`, `StoreFollowing`, `WelcomeBoards`): each a
/// class with private state and a narrow API, held by `let`, so the room's extensions
/// (BoardRoom+….swift) change the room only through the parts' methods; the room keeps the
/// sequencing (loading, holding, the group commit) and the routing of what the parts decide.
///
/// Confinement: every `var` here and in every part is touched only on `queue`, a serial queue
/// of its own, which is what makes `@unchecked Sendable` true. Everything that reaches the room
/// (operations, joins, leaves, HTTP reads) is queued there and handled in arrival order.
final class BoardRoom: @unchecked Sendable {
    let id: String
    let queue: DispatchQueue
    let hub: Hub

    /// What loading the board from the store found.
    enum Readiness {
        case ready
        case missing
        case failed(String)
    }

    private enum Phase {
        /// Waiting for the store; the work that arrived meanwhile runs once it answers.
        case loading([() -> Void])
        case loaded(Readiness)
    }

    private var phase: Phase = .loading([])
    /// The sequencer: resolves and applies operations. Set when the board is loaded; changed
    /// only in this file (the extensions read it).
    private(set) var engine: BoardEngine!
    private(set) var epoch = ""
    /// Committed events on their way to the store, and the answers waiting behind them.
    let pipeline = CommitPipeline(durableSeq: 0)
    /// This node's members, and the joins waiting for the store to be read (RoomMembers.swift).
    let members = RoomMembers()
    /// Who is on the board, of every node, in join order, and what of it waits for a tick
    /// (BoardRoom+Membership.swift, +NodeMembership.swift).
    let membership: RoomMembership
    /// With a shared store, while loading: the nodes whose lists are awaited, and what then runs.
    let listGathering = PeerListGathering<() -> Void>()
    /// Leases, cool-downs, drag generations and other nodes' drags (RoomDrags.swift).
    let drags = RoomDrags()
    /// Drag changes waiting for the board's next tick (BoardRoom+DragBatch.swift).
    let dragBatch: DragBatch
    /// Operations waiting because too many events are not durable yet (the store is slow),
    /// or because the room is catching up with other nodes' commits: the engine's history
    /// must still reach back to the durable seq, and nothing is resolved on a stale board.
    private var held: [() -> Void] = []
    /// Work waiting until what the pipeline held when it came has been told (`whenDelivered`),
    /// with the pipeline's `outboxEntered` then.
    private var awaitingDelivery: [(mark: Int, work: @Sendable () -> Void)] = []
    /// Following other nodes (a shared store): what they announced, whether the store is
    /// being read now, and the work waiting for that to finish (BoardRoom+Following.swift).
    let following = StoreFollowing<() -> Void>()
    /// The durable board written for `welcome`, and the epoch and seq it is of
    /// (BoardRoom+Welcome.swift).
    let welcomeBoards = WelcomeBoards()
    /// The `welcome` peers written for the roster as it is now, while nobody drags
    /// (BoardRoom+Welcome.swift).
    let welcomePeerLists = WelcomePeerLists()
    /// Members of this node with an editing mark: a join looks for the marks to show only
    /// when there are some (BoardRoom+Editing.swift).
    var editingMarkCount = 0

    init(id: String, hub: Hub) {
        self.id = id
        self.hub = hub
        queue = DispatchQueue(label: "corkboard.board.\(id)", target: hub.roomTarget())
        membership = RoomMembership(announcementByteRate: hub.configuration.announcementByteRate, now: hub.clock.now().uptimeNanoseconds)
        dragBatch = DragBatch(now: hub.clock.now())
    }

    // MARK: Loading

    func load() {
        hub.store.loadBoard(id, historyLimit: hub.configuration.historyCapacity) { result in
            self.queue.async { self.finishLoading(result) }
        }
    }

    /// With a shared store, a board that loaded waits for the other nodes' lists of peers too.
    private func finishLoading(_ result: Result<StoredBoard?, StoreError>) {
        guard case .success(.some) = result else { return completeLoading(result) }
        gatherLists { self.completeLoading(result) }
    }

    private func completeLoading(_ result: Result<StoredBoard?, StoreError>) {
        guard case .loading(let waiting) = phase else { return }
        switch result {
        case .success(nil):
            phase = .loaded(.missing)
        case .success(let stored?):
            do {
                try install(stored)
                phase = .loaded(.ready)
                hub.metrics.boardsLoaded.increment()
            } catch {
                hub.logger.error("board \(id) cannot be rebuilt from the store: \(error)")
                phase = .loaded(.failed("the stored board does not load"))
            }
        case .failure(let error):
            hub.logger.error("board \(id) cannot be loaded: \(error)")
            phase = .loaded(.failed("\(error)"))
        }
        if case .loaded(.ready) = phase {} else { hub.forget(self) }
        for work in waiting { work() }
    }

    /// Takes the board as the store gave it: the engine, its epoch, remembered answers.
    func install(_ stored: StoredBoard) throws {
        if let problem = stored.snapshot.validationProblems().first(where: { $0.contains("Unicode NFC") }) {
            // Stored before 0.24: it loads, but a client naming such an id in NFC would meet it.
            hub.logger.warning(
                "board \(id) holds ids not in Unicode NFC, stored before 0.24 (\(problem)): export, normalise and import it (docs/storage.md#export-and-import)"
            )
        }
        var engine = try BoardEngine(
            board: stored.snapshot, seq: stored.snapshotSeq, historyCapacity: hub.configuration.historyCapacity,
            historyByteBudget: hub.configuration.historyByteBudget)
        for folded in stored.foldedCommits { engine.remember(committed: folded.opId, seq: folded.seq) }
        for event in stored.events { try engine.append(event) }
        engine.protectHistory(after: engine.seq)
        for rejection in stored.rejections { engine.remember(rejection) }
        for noop in stored.noops { engine.remember(noop) }
        engine.maximumItems = hub.configuration.maxItemsPerBoard
        engine.maximumCollections = hub.configuration.maxCollectionsPerBoard
        self.engine = engine
        epoch = stored.epoch
        pipeline.restart(durableSeq: engine.seq)
        runWhatAwaitedDelivery()
        following.loaded(seq: engine.seq)
    }

    /// Takes an event another node committed (read from the store): the engine applies it and
    /// the pipeline counts it durable.
    func applyFollowed(_ event: CommittedEvent) throws {
        try engine.append(event)
        pipeline.follow(event)
    }

    /// The engine keeps its history back to the durable seq (what a failed batch reverts to).
    func protectDurableHistory() {
        engine.protectHistory(after: pipeline.durableSeq)
    }

    /// Runs `work` on the queue, after loading has finished.
    func perform(_ work: @escaping @Sendable () -> Void) {
        queue.async {
            if case .loading(var waiting) = self.phase {
                waiting.append(work)
                self.phase = .loading(waiting)
            } else {
                work()
            }
        }
    }

    /// From now on the room answers as for a board that does not exist (it was deleted).
    func markMissing() { phase = .loaded(.missing) }

    /// What loading found; asked only after loading finished (inside `perform`).
    var readiness: Readiness {
        guard case .loaded(let readiness) = phase else { preconditionFailure("readiness is asked after loading") }
        return readiness
    }

    /// Runs `work` when the board is loaded, or reports why it is not.
    func whenReady(orFail fail: (HubError) -> Void, _ work: () -> Void) {
        switch readiness {
        case .ready: work()
        case .missing: fail(.notFound)
        case .failed(let reason): fail(.unavailable(reason))
        }
    }

    // MARK: Operations

    /// An operation from the member behind `key`. `release` (the member's transport holding
    /// its output for the answer, `MemberLink.holdWrites`) runs once what the operation
    /// committed has been broadcast, or at once when it committed nothing or waits.
    func submit(_ request: OperationRequest, from key: MemberKey, thenRelease release: (@Sendable () -> Void)? = nil) {
        perform {
            defer { if let release { self.whenDelivered(release) } }
            // A member exists only in a room that loaded.
            guard let member = self.members[key] else { return }
            // Refused here, not by the resolver: an observer's token may well be an editor's.
            guard !member.observes else {
                self.hub.metrics.rejected(.forbidden)
                let refusal = Rejected(opId: request.opId, code: .forbidden, message: "an observer may not change the board")
                return self.reply(WireText.encode(.rejected(refusal)), to: key)
            }
            self.sequence {
                // Held while the store was behind, the member may have gone meanwhile (a
                // deleted board sends everyone away).
                guard self.members[key] != nil else { return }
                self.noteDrop(request, from: key)
                self.resolve(request, client: member.client, author: member.author, role: member.role, target: .member(key))
            }
        }
    }

    /// Runs `work` once everything queued in the pipeline so far has been told (a commit
    /// broadcast, an answer sent, or, after a failed write, answered `unavailable`): at once
    /// when nothing is queued.
    func whenDelivered(_ work: @escaping @Sendable () -> Void) {
        let mark = pipeline.outboxEntered
        guard pipeline.outboxLeft < mark else { return work() }
        awaitingDelivery.append((mark, work))
    }

    /// What `whenDelivered` held whose part of the pipeline has been told now, in the order it came.
    private func runWhatAwaitedDelivery() {
        let told = pipeline.outboxLeft
        let ready = awaitingDelivery.prefix { $0.mark <= told }
        guard !ready.isEmpty else { return }
        awaitingDelivery.removeFirst(ready.count)
        for (_, work) in ready { work() }
    }

    /// An operation from an HTTP caller, committed as by `author`.
    func submit(
        _ request: OperationRequest, author: String, role: Role, _ completion: @escaping @Sendable (Result<Outcome, HubError>) -> Void
    ) {
        perform {
            self.whenReady(orFail: { completion(.failure($0)) }) {
                let client = self.hub.nextClientID()
                self.sequence {
                    // Ready again when it runs: a held operation may meet a deleted board.
                    self.whenReady(orFail: { completion(.failure($0)) }) {
                        self.resolve(request, client: client, author: author, role: role, target: .http(completion))
                    }
                }
            }
        }
    }

    /// Runs an operation now, or holds it (and everything after it) while the store is
    /// far behind.
    private func sequence(_ work: @escaping () -> Void) {
        if held.isEmpty && !isBackedUp && !following.isReading { work() } else { held.append(work) }
    }

    /// Holds `work` before everything held already (operations a conflict undid while the
    /// room was reading the store: they came first).
    func holdFirst(_ work: [() -> Void]) {
        held.insert(contentsOf: work, at: 0)
    }

    /// Runs what was held, as long as nothing holds it again.
    func releaseHeld() {
        while !held.isEmpty && !isBackedUp && !following.isReading { held.removeFirst()() }
    }

    /// Too much waits for the store: half the history's count, or half its byte budget
    /// (the events not durable yet are kept whatever their bytes, so that a failed write
    /// can undo them; holding the rest bounds them).
    private var isBackedUp: Bool {
        engine.seq - pipeline.durableSeq >= max(1, hub.configuration.historyCapacity / 2)
            || engine.historyBytes.protected >= engine.historyByteBudget / 2
    }

    func resolve(_ request: OperationRequest, client: ClientID, author: String, role: Role, target: ReplyTarget) {
        let stamp = CommitStamp(at: max(CommitClock.millisecondsSince1970(), engine.latestCommitTime ?? 0), by: author)
        let outcome = engine.apply(request, client: client, role: role, leases: drags.leases, stamp: stamp)
        let resolution = Resolution(request: request, client: client, author: author, role: role, target: target)
        if case .committed(let commit) = outcome {
            pipeline.add(commit.event, from: target, resolution: resolution)
        } else if let delivery = pipeline.answer(outcome, to: target, resolution: resolution) {
            deliver([delivery])
        }
        writeNextBatch()
    }

    // MARK: Group commit

    func writeNextBatch() {
        guard let batch = pipeline.nextBatch(board: id, epoch: epoch) else { return }
        let started = DispatchTime.now().uptimeNanoseconds
        hub.store.append(batch) { result in
            self.hub.metrics.recordStoreWrite(since: started)
            self.queue.async { self.batchFinished(result) }
        }
    }

    private func batchFinished(_ result: Result<Void, StoreError>) {
        switch result {
        case .success:
            let deliveries = pipeline.batchSucceeded()
            engine.protectHistory(after: pipeline.durableSeq)
            // The next batch goes to the store before this one is sent to every member, so
            // the disk works while the sockets do.
            writeNextBatch()
            deliver(deliveries)
        case .failure(.conflict(let seq)):
            // Another node extended the board first: nothing of this batch was written.
            hub.metrics.conflicts.increment()
            revertToDurable()
            let conflicted = pipeline.batchConflicted()
            for opId in conflicted.forgotten { engine.forgetAnswer(to: opId) }
            deliver(conflicted.deliveries)
            catchUp(afterConflictAt: seq, thenResolve: conflicted.resolutions)
        case .failure(.notFound):
            // A DELETE (here, or on another node) went first: nothing of the batch was
            // written, and nothing will be. Answered as for a board that is not there (HTTP
            // 404, not a 503 that asks to retry), and the room ends as a deleted board's does.
            revertToDurable()
            let failed = pipeline.batchFailed(reason: "the board was deleted")
            for opId in failed.forgotten { engine.forgetAnswer(to: opId) }
            deliver(failed.deliveries, boardDeleted: true)
            deleted()
        case .failure(let error):
            hub.logger.error("board \(id): a batch could not be made durable: \(error)")
            revertToDurable()
            let failed = pipeline.batchFailed(reason: "\(error)")
            for opId in failed.forgotten { engine.forgetAnswer(to: opId) }
            deliver(failed.deliveries)
        }
        runWhatAwaitedDelivery()
        releaseHeld()
        writeNextBatch()
        // Others committed meanwhile, or someone waits for the store to be read: now that
        // nothing of this room's own is on its way, read it (a store that is down answers
        // at once, and the waiting ones go on with what this room has).
        catchUpAfterOwnBatch()
    }

    private func revertToDurable() {
        do {
            try engine.revert(after: pipeline.durableSeq)
        } catch {
            // The room never lets more events wait than the history keeps.
            preconditionFailure("board \(id) cannot revert to its durable seq: \(error)")
        }
    }

    /// Sends each delivery to whom it is for. `boardDeleted`: the batch met a board deleted in
    /// the store; its rejections are final (`gone` to members, `notFound` to HTTP callers),
    /// not the `unavailable` of a store failure, which asks for a retry that cannot succeed.
    private func deliver(_ deliveries: [Delivery], boardDeleted: Bool = false) {
        for delivery in deliveries {
            switch delivery {
            case .broadcast(let event, let target, let committedAt):
                // Counted before it is sent, so whoever has seen it also finds it in /metrics.
                hub.metrics.committed.increment()
                hub.metrics.recordCommitToBroadcast(since: committedAt)
                liveLinks.broadcast(WireText.encode(.committed(event)))
                if case .http(let reply) = target { reply(.success(.committed(Commit(event: event)))) }
                clearDrags(after: event, from: target)
            case .reply(.rejected(let rejection), .member(let key)) where boardDeleted:
                let gone = Rejection(opId: rejection.opId, code: .gone, message: "the board was deleted")
                hub.metrics.count(.rejected(gone))
                reply(WireText.encode(ServerMessage(Outcome.rejected(gone))), to: key)
            case .reply(let outcome, .member(let key)):
                hub.metrics.count(outcome)
                reply(WireText.encode(ServerMessage(outcome)), to: key)
                clearDrag(after: outcome, to: key)
            case .reply(_, .http(let reply)) where boardDeleted:
                reply(.failure(.notFound))
            case .reply(let outcome, .http(let reply)):
                hub.metrics.count(outcome)
                reply(.success(outcome))
            case .reply(_, .elsewhere):
                break
            }
        }
    }

    /// The connections of the members that receive broadcasts (not replaying).
    var liveLinks: [any MemberLink] { members.liveLinks }

    // MARK: Reads for the HTTP API (durable state only)

    func document(_ completion: @escaping @Sendable (Result<BoardDocument, HubError>) -> Void) {
        perform {
            self.whenReady(orFail: { completion(.failure($0)) }) {
                self.afterReadingTheStore {
                    completion(.success(BoardDocument(board: self.durableBoard, seq: self.pipeline.durableSeq, epoch: self.epoch)))
                }
            }
        }
    }

    func events(since: Int, limit: Int, _ completion: @escaping @Sendable (Result<[CommittedEvent], HubError>) -> Void) {
        perform {
            self.whenReady(orFail: { completion(.failure($0)) }) {
                self.afterReadingTheStore {
                    let durable = self.pipeline.durableSeq
                    guard since <= durable else {
                        return completion(.failure(.invalid("since=\(since) is above the board's seq \(durable)")))
                    }
                    // Only the page asked for is copied out of the history.
                    guard let events = self.engine.events(after: since, through: since + min(limit, durable - since)) else {
                        return completion(
                            .failure(
                                .gone(
                                    "since=\(since) is older than the kept history (from \(self.engine.oldestReachableSeq))")))
                    }
                    completion(.success(events))
                }
            }
        }
    }

    /// With a store shared by several nodes, a read first catches up with what the others
    /// committed, so it never answers older than a commit acknowledged elsewhere before it.
    private func afterReadingTheStore(_ work: @escaping () -> Void) {
        guard hub.cluster != nil else { return work() }
        afterCatchingUp(to: pipeline.durableSeq + 1, work)
    }

    /// The board at the durable seq: what members and readers may see.
    var durableBoard: Board {
        guard let board = engine.board(asOf: pipeline.durableSeq) else {
            // `isBackedUp` keeps the durable seq inside the history window.
            preconditionFailure("board \(id): durable seq \(pipeline.durableSeq) left the history window")
        }
        return board
    }
}
