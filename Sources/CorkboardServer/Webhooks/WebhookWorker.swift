import CorkboardModel
import CorkboardStore
import Dispatch
import Foundation
import Logging
import Synchronization

/// Delivers one endpoint's messages, one at a time and in order: the notices of the outbox
/// first, then each board's committed events from the endpoint's cursor, read from the store
/// (never from a board's room: a slow or dead receiver costs the boards nothing). A message
/// goes again, after a backoff, until its receiver answers 2xx; only then does the cursor move,
/// durably, past it. Confinement: everything but `backlog` runs on `queue`, which makes
/// `@unchecked Sendable` true.
final class WebhookWorker: @unchecked Sendable {
    /// A message to send (nil: one the endpoint does not receive, whose cursor just moves on),
    /// and the cursor position it stands for.
    private struct Pending {
        var message: WebhookMessage?
        var stream: WebhookStream
        var position: Int
        /// A board deleted: the endpoint's cursor of it goes (the store dropped it already).
        var forgets: String?
    }

    let endpoint: WebhookEndpoint
    private let store: any BoardStore & WebhookStore
    private let sender: WebhookSender
    private let metrics: WebhookMetrics
    private let logger: Logger
    /// Whether this node may deliver now (it holds the delivery lease).
    private let mayDeliver: @Sendable () -> Bool
    /// `WebhookDeliverer.startProgress`: for an endpoint that was never started.
    private let startProgress: @Sendable (String, Set<String>?, @escaping @Sendable (Result<Void, StoreError>) -> Void) -> Void
    private let queue: DispatchQueue
    /// Messages not yet delivered, as of the last look at the store.
    let backlog = Atomic<Int>(0)

    private var progress: WebhookProgress?
    private var pending: [Pending] = []
    private var attempts: WebhookAttempts
    private var busy = false
    private var stopped = false
    private var statusWrittenAt: Date?
    /// The board read last, where the next look's turn starts.
    private var lastBoardRead: String?
    /// Whether the status last written tells of a failure.
    private var statusShowsFailure = false

    /// Events read from one board's log per look, and boards read per look.
    private static let eventsPerRead = 100
    private static let boardsPerLook = 8

    init(
        endpoint: WebhookEndpoint, store: any BoardStore & WebhookStore, sender: WebhookSender, backoff: WebhookBackoff,
        metrics: WebhookMetrics, logger: Logger, mayDeliver: @escaping @Sendable () -> Bool,
        startProgress: @escaping @Sendable (String, Set<String>?, @escaping @Sendable (Result<Void, StoreError>) -> Void) -> Void
    ) {
        self.startProgress = startProgress
        self.endpoint = endpoint
        self.store = store
        self.sender = sender
        self.metrics = metrics
        self.logger = logger
        self.mayDeliver = mayDeliver
        attempts = WebhookAttempts(backoff: backoff)
        queue = DispatchQueue(label: "corkboard.webhook.\(endpoint.id)")
    }

    /// Does what is due: the next message, once the wait after a failure is over.
    func tick() { queue.async { self.proceed() } }

    /// No further attempt; one in flight finishes without moving the cursor (the message goes
    /// again from whichever node delivers next: at least once).
    func stop() { queue.async { self.stopped = true } }

    private func proceed() {
        guard !stopped, !busy, mayDeliver(), attempts.isDue(at: Date()) else { return }
        busy = true
        guard let progress else { return start() }
        guard let next = pending.first else {
            return look(from: progress) { [self] in
                busy = false
                if !pending.isEmpty { proceed() }
            }
        }
        guard let message = next.message else { return advance(past: next) }
        sender.send(message, to: endpoint.url, secret: endpoint.secret) { [self] result in
            queue.async { [self] in finished(next, result) }
        }
    }

    /// Reads the endpoint's progress, starting it first if it never was (from each board's seq now).
    private func start() {
        store.webhookProgress(endpoint: endpoint.id) { [self] result in
            queue.async { [self] in
                switch result {
                case .success(let read) where read.notices != nil:
                    progress = read
                    busy = false
                    proceed()
                case .success:
                    startProgress(endpoint.id, endpoint.boards) { [self] _ in queue.async { self.busy = false } }
                case .failure(let error):
                    logger.error("webhook \(endpoint.id): its progress cannot be read: \(error)")
                    busy = false
                }
            }
        }
    }

    /// Fills `pending`: the outbox's notices after the cursor, or else the events of the boards
    /// whose seq is past the endpoint's cursor (a few boards per look, each from its cursor).
    /// The boards are listed before the outbox is read: a board in the list had its
    /// `board.created` written with it, so that notice goes before any of its events.
    private func look(from progress: WebhookProgress, _ done: @escaping @Sendable () -> Void) {
        store.listBoards { [self] listed in
            store.webhookNotices(after: progress.notices ?? 0, limit: Self.eventsPerRead) { [self] result in
                queue.async { [self] in
                    switch (result, listed) {
                    case (.success(let notices), _) where !notices.isEmpty:
                        for notice in notices {
                            pending.append(
                                Pending(
                                    message: endpoint.receives(board: notice.board) ? .notice(notice) : nil, stream: .notices,
                                    position: notice.id, forgets: notice.kind == .deleted ? notice.board : nil))
                        }
                        done()
                    case (.success, .success(let boards)):
                        let behind = boards.filter { endpoint.receives(board: $0.id) && $0.seq > (progress.boards[$0.id] ?? 0) }
                        backlog.store(behind.reduce(0) { $0 + $1.seq - (progress.boards[$1.id] ?? 0) }, ordering: .relaxed)
                        // In turns: the boards after the last one read first, so that a few busy
                        // boards never keep the others waiting.
                        let turn = lastBoardRead.map { last in behind.filter { $0.id > last } + behind.filter { $0.id <= last } } ?? behind
                        let chosen = Array(turn.prefix(Self.boardsPerLook))
                        lastBoardRead = chosen.last?.id
                        read(chosen, done)
                    case (.failure(let error), _), (_, .failure(let error)):
                        logger.warning("webhook \(endpoint.id): the store cannot be read: \(error)")
                        done()
                    }
                }
            }
        }
    }

    /// Reads each board's events after the endpoint's cursor; a log folded past the cursor
    /// gives a `board.skipped` in their place (docs/integrations.md#ordering-and-gaps).
    private func read(_ boards: [BoardSummary], _ done: @escaping @Sendable () -> Void) {
        guard let board = boards.first?.id else { return done() }
        let cursor = progress?.boards[board] ?? 0
        store.events(board: board, after: cursor, limit: Self.eventsPerRead) { [self] result in
            queue.async { [self] in
                switch result {
                case .success(let events):
                    for event in events {
                        do {
                            pending.append(Pending(message: try .committed(event, board: board), stream: .board(board), position: event.seq))
                        } catch {
                            logger.error("webhook \(endpoint.id): event \(event.seq) of \(board) does not encode, not delivered: \(error)")
                            pending.append(Pending(message: nil, stream: .board(board), position: event.seq))
                        }
                    }
                case .failure(.pruned(let through)):
                    logger.warning("webhook \(endpoint.id): events \(cursor + 1)…\(through) of \(board) were folded away before delivery")
                    pending.append(Pending(message: .skipped(board: board, after: cursor, through: through), stream: .board(board), position: through))
                case .failure(.notFound):
                    break // Deleted since it was listed: its board.deleted notice follows.
                case .failure(let error):
                    logger.warning("webhook \(endpoint.id): the log of \(board) cannot be read: \(error)")
                }
                read(Array(boards.dropFirst()), done)
            }
        }
    }

    private func finished(_ sent: Pending, _ result: Result<Int, Error>) {
        guard !stopped else { return }
        let outcome: WebhookAttempts.Outcome =
            switch result {
            case .success(let status): .answered(status)
            case .failure(let error): .unreachable("\(error)")
            }
        let decision = attempts.record(outcome, at: Date(), jitter: Double.random(in: 0...1))
        metrics.attempted(outcome)
        switch decision {
        case .advance:
            advance(past: sent)
        case .retry(let at):
            if attempts.failures == 1 || attempts.failures.nonzeroBitCount == 1 {
                logger.warning(
                    "webhook \(endpoint.id): \(sent.message?.id ?? "") not delivered (\(WebhookStatus(attempts).lastError ?? "")); attempt \(attempts.failures + 1) in \(Int(at.timeIntervalSinceNow.rounded(.up))) s"
                )
            }
            writeStatus()
            busy = false
        }
    }

    /// Moves the cursor past `sent` in the store, then goes on with the next message.
    private func advance(past sent: Pending) {
        guard let gone = sent.forgets else { return moveCursor(past: sent) }
        // The deletion dropped the board's cursor in the store, but a message of the old board
        // still in flight then may have written it again: reset first, so that a board created
        // anew under the id is delivered from seq 1 after a restart too (a crash in between
        // tells the notice again, which resets again).
        store.advanceWebhookCursor(endpoint: endpoint.id, stream: .board(gone), to: 0) { [self] result in
            queue.async { [self] in
                guard case .failure(let error) = result else { return moveCursor(past: sent) }
                busy = false
                logger.warning("webhook \(endpoint.id): the cursor of the deleted board \(gone) cannot be reset: \(error)")
            }
        }
    }

    private func moveCursor(past sent: Pending) {
        store.advanceWebhookCursor(endpoint: endpoint.id, stream: sent.stream, to: sent.position) { [self] result in
            queue.async { [self] in
                busy = false
                guard !stopped else { return }
                if case .failure(let error) = result {
                    // The message goes again: at least once.
                    return logger.warning("webhook \(endpoint.id): the cursor cannot be moved: \(error)")
                }
                pending.removeFirst()
                switch sent.stream {
                case .notices: progress?.notices = sent.position
                case .board(let board): progress?.boards[board] = sent.position
                }
                if let gone = sent.forgets { progress?.boards[gone] = nil }
                if sent.message != nil, case .board = sent.stream {
                    backlog.store(max(0, backlog.load(ordering: .relaxed) - 1), ordering: .relaxed)
                }
                // A recovery is told at once; success after success now and then.
                if sent.message != nil && (statusShowsFailure || statusWrittenAt.map({ Date().timeIntervalSince($0) > 5 }) ?? true) {
                    writeStatus()
                }
                proceed()
            }
        }
    }

    private func writeStatus() {
        statusWrittenAt = Date()
        statusShowsFailure = attempts.failures > 0
        store.recordWebhookStatus(endpoint: endpoint.id, status: WebhookStatus(attempts).text) { _ in }
    }
}
