import CoreMetrics
import CorkboardModel
import CorkboardStore
import CorkboardWire
import Dispatch
import Foundation
import Logging
import Synchronization

/// The collaboration hub: one room per active board, each with its own serial sequencer,
/// and the sessions of every WebSocket on `/ws`. Boards proceed in parallel; within a board
/// everything happens in arrival order on the room's queue.
public final class Hub: Sendable {
    public let configuration: HubConfiguration
    /// `configuration.clock`: the time every deadline of the hub is read and scheduled in.
    let clock: any HubClock
    let store: BoardStore
    /// The store's signals when it is shared by several nodes (PostgreSQL); nil for a store of
    /// one node, whose rooms then decide drags and leases alone.
    let cluster: (any ClusterSignals)?
    /// Who may do what; replaced as a whole when the token file is reloaded.
    private let accessPolicy: Mutex<any AccessPolicy>
    /// The revocations in force, checked on top of the access policy (`Hub+Revocations.swift`).
    let revocationSources = Mutex(RevocationSources())
    /// Boards being created now, counted against `maxBoards` until the store answers.
    private let creating = Mutex(0)
    let logger: Logger
    let metrics: HubMetrics
    private let rooms = Mutex<[String: BoardRoom]>([:])
    /// The rooms open now (each one's state is read on its own queue).
    var openRooms: [BoardRoom] { rooms.withLock { Array($0.values) } }
    private let clientCounter = Atomic<Int>(0)
    /// HTTP callers' operation budgets, in operations and in bytes, by address.
    let httpOperationRates: RateTable?
    let httpOperationByteRates: RateTable?
    /// `refusedHelloRate`, by client address.
    private let refusedHellos: RateTable?
    /// The serial queues every room's own queue runs on, one per core. A room's queue on its
    /// own targets the global pool, and a hundred busy boards then had Dispatch running a
    /// hundred threads on two cores: most of the time went to switching between them.
    private let roomTargets: [DispatchQueue]
    private let nextRoomTarget = Atomic<Int>(0)
    /// The other nodes sharing the store, by their heartbeats (nil for a store of one node).
    private let nodes: NodeLiveness?
    /// Appended to client ids so that two nodes never give out the same one.
    private let clientSuffix: String

    /// `metrics` receives the hub's counters and gauges (the server's Prometheus registry);
    /// by default nothing is recorded.
    public init(
        store: BoardStore, access: AccessPolicy = OpenAccess(), configuration: HubConfiguration = HubConfiguration(),
        logger: Logger, metrics: MetricsFactory = NOOPMetricsHandler.instance
    ) {
        self.store = store
        cluster = store as? any ClusterSignals
        self.metrics = HubMetrics(factory: metrics)
        accessPolicy = Mutex(NameBoundAccess(access))
        self.configuration = configuration
        clock = configuration.clock
        self.logger = logger
        httpOperationRates = configuration.operationRate.map(RateTable.init)
        httpOperationByteRates = configuration.operationByteRate.map(RateTable.init)
        refusedHellos = configuration.refusedHelloRate.map(RateTable.init)
        roomTargets = (0..<max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))).map { DispatchQueue(label: "corkboard.boards.\($0)", qos: .userInitiated) }
        clientSuffix = cluster.map { "-" + $0.nodeName } ?? ""
        nodes = cluster.map { _ in NodeLiveness(timeout: configuration.nodeTimeout, clock: configuration.clock) }
        cluster?.observe { [weak self] signal in self?.heard(signal) }
        nodes?.start { [weak self] node in
            guard let self else { return }
            logger.warning("node \(node) stopped (or stopped beating): its members' drags end and they leave")
            for room in openRooms {
                room.nodeGone(node)
                room.membersGone(withNode: node)
            }
        }
    }

    /// What a store shared with other nodes tells: their commits wake the rooms loaded here
    /// (a board nobody here has open is read fresh when it is opened), a reconnect makes
    /// every room check, presence goes to the board's room, and a deletion by any node sends
    /// the board's members here away.
    private func heard(_ signal: StoreSignal) {
        switch signal {
        case .committed(let board, let seq):
            rooms.withLock { $0[board] }?.follow(upTo: seq)
        case .resynchronize:
            for room in openRooms {
                room.checkStore()
                // Membership messages may have been lost too: every list is asked for again.
                room.shareListAgain()
            }
        case .presence(let payload):
            if let presence = NodePresence.decode(payload) {
                guard presence.node != cluster?.nodeName else { return }
                nodes?.heard(presence.node)
                rooms.withLock { $0[presence.board] }?.receive(presence)
            } else if let membership = NodeMembership.decode(payload), membership.node != cluster?.nodeName {
                nodes?.heard(membership.node)
                receive(membership)
            }
        case .deleted(let board, let epoch):
            rooms.withLock { $0[board] }?.deletedInStore(epoch: epoch)
        case .replaced(let board, let epoch):
            rooms.withLock { $0[board] }?.replacedInStore(epoch: epoch)
        case .nodeAlive(let node):
            if node != cluster?.nodeName { nodes?.heard(node) }
        case .nodeStopping(let node):
            if node != cluster?.nodeName { nodes?.stopping(node) }
        case .revocationsChanged:
            loadRevocations()
        }
    }

    /// A membership message of another node goes to the board's room. A node with no room
    /// for the board still answers an ask, with an empty list: the asking room waits for every
    /// live node. The answer is sent under the rooms' lock, so a room created here right after
    /// cannot tell a join before it (the store keeps one node's messages in order).
    private func receive(_ membership: NodeMembership) {
        guard let cluster else { return }
        rooms.withLock { rooms in
            if let room = rooms[membership.board] { return room.receive(membership) }
            guard membership.ask, membership.to == nil || membership.to == cluster.nodeName else { return }
            for part in NodeMembership.list(node: cluster.nodeName, board: membership.board, peers: [], asking: false) {
                cluster.publish(presence: part.encoded())
            }
        }
    }

    /// The other nodes sharing the store that are alive now, by their heartbeats.
    func liveNodes() -> Set<String> { nodes?.alive() ?? [] }

    /// The queue a new room's queue runs on (round-robin).
    func roomTarget() -> DispatchQueue {
        roomTargets[nextRoomTarget.add(1, ordering: .relaxed).oldValue % roomTargets.count]
    }

    /// The session of one new member connection (a WebSocket on `/ws`), which answers
    /// through `link`; the transport drives it (see `HubSession`).
    /// `address`: the client's, by which refused hellos are counted (nil: not counted, for a
    /// loopback peer or a transport that judges no hello).
    public func makeSession(link: any MemberLink, address: String?) -> HubSession {
        HubSession(hub: self, link: link, address: address)
    }

    /// Whether `address` may still have a first message read (`refusedHelloRate`).
    func mayTryHello(from address: String) -> Bool {
        refusedHellos?.hasToken(address, now: clock.now().uptimeNanoseconds) ?? true
    }

    /// A `hello` from `address` was refused for its token or for not being one.
    func helloRefused(from address: String) {
        _ = refusedHellos?.take(address, now: clock.now().uptimeNanoseconds)
    }

    /// The access policy in force now, the revocations in force applied.
    public var access: AccessPolicy {
        let policy = accessPolicy.withLock { $0 }
        let revoked = revocationSources.withLock { $0.inForce }
        return revoked.isEmpty ? policy : RevocationCheckedAccess(policy: policy, revoked: revoked)
    }

    /// The role `token` grants on `board` under the policy in force now.
    public func role(token: String?, board: String) -> Role? { access.role(token: token, board: board) }

    /// Puts a new access policy in force (a reloaded token file): from now on every `hello`
    /// and HTTP request is judged by it, and every member whose token no longer grants the
    /// role it joined with is disconnected: a revoked token with `error` `forbidden` and close
    /// 1008, a changed role with close 1012 so that the client joins again with its new role.
    public func replaceAccess(with policy: AccessPolicy) {
        accessPolicy.withLock { $0 = NameBoundAccess(policy) }
        recheckEveryMember()
    }

    /// Judges every member's token again under the access in force now (`BoardRoom.recheckAccess`).
    func recheckEveryMember() {
        for room in openRooms { room.recheckAccess() }
    }

    /// A fresh client id (`c1`, `c2`, …), unique within this process; with a shared store,
    /// the node's name follows (`c1-3f9a0c1e`), so ids are unique across nodes.
    func nextClientID() -> ClientID {
        "c\(clientCounter.add(1, ordering: .relaxed).newValue)\(clientSuffix)"
    }

    /// The room of a board, loading it from the store on first use. A board that turns out
    /// not to exist (or could not be read) is forgotten again, so its room costs nothing.
    func room(for board: String) -> BoardRoom {
        let (room, isNew) = rooms.withLock { rooms in
            if let room = rooms[board] { return (room, false) }
            let room = BoardRoom(id: board, hub: self)
            rooms[board] = room
            return (room, true)
        }
        if isNew { room.load() }
        return room
    }

    func forget(_ room: BoardRoom) {
        rooms.withLock { rooms in
            if rooms[room.id] === room { rooms[room.id] = nil }
        }
    }

    // MARK: The HTTP API's calls

    public func listBoards(_ completion: @escaping @Sendable (Result<[BoardSummary], HubError>) -> Void) {
        store.listBoards { result in completion(result.mapError(HubError.init)) }
    }

    /// Creates a board at seq 0 with a new epoch, within `maxBoards`, `maxItemsPerBoard` and
    /// `maxCollectionsPerBoard`.
    public func createBoard(_ board: Board, _ completion: @escaping @Sendable (Result<BoardDocument, HubError>) -> Void) {
        let problems = board.validationProblems()
        guard problems.isEmpty else { return completion(.failure(.invalid(problems.joined(separator: "; ")))) }
        if let problem = configuration.boardSizeLimits.problems(of: board).first {
            return completion(.failure(.invalid(problem)))
        }
        withinBoardLimit(completion) { finish in self.insertBoard(board, finish) }
    }

    /// `make`s a board if one more stays within `maxBoards` (a board of the id `sparing` already
    /// there is not one more), else answers `limitReached`. Boards being made are counted before
    /// the store is asked, so that boards made side by side cannot overshoot the limit together.
    func withinBoardLimit<Value: Sendable>(
        sparing existing: String? = nil, _ completion: @escaping @Sendable (Result<Value, HubError>) -> Void,
        _ make: @escaping @Sendable (@escaping @Sendable (Result<Value, HubError>) -> Void) -> Void
    ) {
        guard let limit = configuration.maxBoards else { return make(completion) }
        creating.withLock { $0 += 1 }
        store.listBoards { listed in
            let finish: @Sendable (Result<Value, HubError>) -> Void = { result in
                self.creating.withLock { $0 -= 1 }
                completion(result)
            }
            switch listed {
            case .failure(let error):
                finish(.failure(HubError(error)))
            case .success(let boards)
            where !boards.contains(where: { $0.id == existing }) && boards.count + self.creating.withLock({ $0 }) > limit:
                finish(.failure(.limitReached("the server holds its maximum of \(limit) boards")))
            case .success:
                make(finish)
            }
        }
    }

    private func insertBoard(_ board: Board, _ completion: @escaping @Sendable (Result<BoardDocument, HubError>) -> Void) {
        let epoch = Epoch.make()
        store.createBoard(board, epoch: epoch) { result in
            completion(result.map { BoardDocument(board: board, seq: 0, epoch: epoch) }.mapError(HubError.init))
        }
    }

    /// Deletes a board from the store with everything kept for it; its members get `error`
    /// `gone` and close 1008, and a later `hello` or request finds no such board.
    public func deleteBoard(_ board: String, _ completion: @escaping @Sendable (Result<Void, HubError>) -> Void) {
        guard Limits.isValidID(board) else { return completion(.failure(.notFound)) }
        room(for: board).delete(completion)
    }

    /// The board as of its durable seq.
    public func document(board: String, _ completion: @escaping @Sendable (Result<BoardDocument, HubError>) -> Void) {
        guard Limits.isValidID(board) else { return completion(.failure(.notFound)) }
        room(for: board).document(completion)
    }

    /// The durable committed events after `since`, at most `limit` of them.
    public func events(
        board: String, since: Int, limit: Int = .max, _ completion: @escaping @Sendable (Result<[CommittedEvent], HubError>) -> Void
    ) {
        guard Limits.isValidID(board) else { return completion(.failure(.notFound)) }
        room(for: board).events(since: since, limit: limit, completion)
    }

    /// One operation from an HTTP caller with `role`: answered when its outcome may be told
    /// (a commit once durable, and broadcast to the board's members like any other).
    /// `caller` (the client's address) is what the operation rates are counted by, and
    /// `bytes` (the request's body) what it costs against the byte rate. A commit carries
    /// `author` as its `by` (`TokenHolder.httpAuthor`).
    public func submit(
        _ request: OperationRequest, board: String, role: Role, author: String, caller: String, bytes: Int,
        _ completion: @escaping @Sendable (Result<Outcome, HubError>) -> Void
    ) {
        guard Limits.isValidID(board) else { return completion(.failure(.notFound)) }
        if let rates = httpOperationRates, !rates.take(caller, now: clock.now().uptimeNanoseconds) {
            metrics.rejected(.rateLimited)
            return completion(.success(.rejected(configuration.rateLimitedRejection(request.opId))))
        }
        // The commit carries `author` as its `by`: counted with the body, as it is stored and sent with it.
        if let rates = httpOperationByteRates, !rates.take(caller, cost: Double(bytes + author.utf8.count), now: clock.now().uptimeNanoseconds) {
            metrics.rejected(.rateLimited)
            return completion(.success(.rejected(configuration.byteRateLimitedRejection(request.opId))))
        }
        room(for: board).submit(request, author: author, role: role, completion)
    }

    /// Creates `board` when the store holds no board at all (the demo a new user sees).
    public func createIfEmpty(_ board: Board, _ completion: @escaping @Sendable (Result<Bool, HubError>) -> Void) {
        listBoards { result in
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let boards) where !boards.isEmpty: completion(.success(false))
            case .success:
                self.createBoard(board) { created in
                    switch created {
                    case .success: completion(.success(true))
                    case .failure(.alreadyExists): completion(.success(false))
                    case .failure(let error): completion(.failure(error))
                    }
                }
            }
        }
    }
}
