import CorkboardStore
import Dispatch
import Foundation
import Logging
import Sockets
import Synchronization

/// Runs the webhooks of this server: the endpoints of the file and of the store, each with a
/// `WebhookWorker` of its own (a dead receiver holds up no other), while this node holds the
/// delivery lease. Nodes sharing a PostgreSQL store take the lease in turns: one delivers,
/// renews it every few seconds, and another takes over once a dead holder's lease lapses.
/// Confinement: the workers and timers live on `queue`, which makes `@unchecked Sendable` true.
final class WebhookDeliverer: @unchecked Sendable {
    let store: any BoardStore & WebhookStore
    let settings: WebhookSettings
    /// The endpoints of `--webhooks`, replaced as a whole when the file is reloaded.
    let fileEndpoints: Mutex<[WebhookEndpoint]>
    private let node: String
    /// Made with the first worker (a server without endpoints opens no TLS context).
    private var sender: WebhookSender?
    private let metrics: WebhookMetrics
    private let logger: Logger
    private let queue = DispatchQueue(label: "corkboard.webhooks")
    /// Until when this node holds the lease (by its own clock, a margin before the store's expiry).
    private let leaseUntil = Mutex<Date?>(nil)

    private var timer: DispatchSourceTimer?
    private var workers: [String: WebhookWorker] = [:]
    private var storedEndpoints: [WebhookEndpoint] = []
    private var renewing = false
    private var lastRenewal: Date?
    private var readingEndpoints = false
    private var lastEndpointRead: Date?

    init(
        store: any BoardStore & WebhookStore, node: String, fileEndpoints: [WebhookEndpoint], settings: WebhookSettings,
        metrics: WebhookMetrics, logger: Logger
    ) {
        self.store = store
        self.node = node
        self.settings = settings
        self.fileEndpoints = Mutex(fileEndpoints)
        self.metrics = metrics
        self.logger = logger
    }

    func start() {
        queue.async { [self] in
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: settings.pollInterval)
            timer.setEventHandler { [weak self] in self?.tick() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Stops every worker; a delivery in flight ends without moving its cursor.
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
            for worker in workers.values { worker.stop() }
            workers = [:]
        }
        leaseUntil.withLock { $0 = nil }
    }

    /// The endpoints of a reloaded webhooks file (their workers change at the next tick).
    func replaceFileEndpoints(_ endpoints: [WebhookEndpoint]) {
        fileEndpoints.withLock { $0 = endpoints }
    }

    /// Starts the progress of endpoint `id` unless it was started: it receives what is committed
    /// from now on (each board's seq now is its start) and boards created from now on.
    func startProgress(of id: String, boards filter: Set<String>?, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        store.listBoards { [store] listed in
            switch listed {
            case .failure(let error):
                completion(.failure(error))
            case .success(let boards):
                let seqs = Dictionary(boards.filter { filter?.contains($0.id) ?? true }.map { ($0.id, $0.seq) }, uniquingKeysWith: max)
                store.startWebhookProgress(endpoint: id, boards: seqs, completion)
            }
        }
    }

    /// Starts the progress of the file's endpoints that never started, and waits for it: done
    /// before the server listens (and at a reload), so that what is committed after that reaches
    /// them. The store's refusal, if any.
    func startFileEndpoints() -> String? {
        let failure = Mutex<String?>(nil)
        let group = DispatchGroup()
        for endpoint in fileEndpoints.withLock({ $0 }) {
            group.enter()
            startProgress(of: endpoint.id, boards: endpoint.boards) { result in
                if case .failure(let error) = result { failure.withLock { $0 = "\(endpoint.id): \(error)" } }
                group.leave()
            }
        }
        guard group.wait(timeout: .now() + 30) == .success else { return "the store did not answer within 30 s" }
        return failure.withLock { $0 }
    }

    private var holdsLease: Bool { leaseUntil.withLock { $0.map { Date() < $0 } ?? false } }

    /// The endpoints are read every second; the lease is taken and renewed only while there is
    /// one (a cluster without webhooks writes nothing for them).
    private func tick() {
        let now = Date()
        readEndpoints(now)
        let anyEndpoint = !storedEndpoints.isEmpty || !fileEndpoints.withLock { $0.isEmpty }
        if anyEndpoint { renewLease(now) }
        guard anyEndpoint, holdsLease else {
            if !workers.isEmpty {
                if anyEndpoint { logger.notice("webhooks: this node no longer holds the delivery lease; another delivers") }
                for worker in workers.values { worker.stop() }
                workers = [:]
                metrics.setBacklog(0)
            }
            return
        }
        reconcile()
        for worker in workers.values { worker.tick() }
        metrics.setBacklog(workers.values.reduce(0) { $0 + $1.backlog.load(ordering: .relaxed) })
    }

    /// Renews the lease every fifth of its life; a node that cannot reach the store loses it.
    private func renewLease(_ now: Date) {
        guard !renewing, lastRenewal.map({ now.timeIntervalSince($0) >= settings.leaseSeconds / 5 }) ?? true else { return }
        renewing = true
        lastRenewal = now
        let seconds = settings.leaseSeconds
        store.holdWebhookLease(node: node, seconds: seconds) { [self] result in
            queue.async { [self] in
                renewing = false
                let held = (try? result.get()) ?? false
                let wasHeld = holdsLease
                // A second's margin before the store lets another node take it.
                leaseUntil.withLock { $0 = held ? now.addingTimeInterval(seconds - 1) : nil }
                if held && !wasHeld { logger.info("webhooks: this node delivers (it holds the delivery lease)") }
                if case .failure(let error) = result { logger.warning("webhooks: the delivery lease cannot be renewed: \(error)") }
            }
        }
    }

    private func readEndpoints(_ now: Date) {
        guard !readingEndpoints, lastEndpointRead.map({ now.timeIntervalSince($0) >= 1 }) ?? true else { return }
        readingEndpoints = true
        lastEndpointRead = now
        store.webhookEndpoints { [self] result in
            queue.async { [self] in
                readingEndpoints = false
                switch result {
                case .success(let records):
                    storedEndpoints = records.compactMap { record in
                        guard let endpoint = WebhookEndpoint(record: record) else {
                            logger.error("webhook \(record.id): its stored URL or secret is refused; not delivered")
                            return nil
                        }
                        return endpoint
                    }
                    if holdsLease { reconcile() }
                case .failure(let error):
                    logger.warning("webhooks: the endpoints cannot be read from the store: \(error)")
                }
            }
        }
    }

    /// One worker per endpoint; an endpoint that changed (a reloaded file) gets a new one.
    private func reconcile() {
        var wanted: [String: WebhookEndpoint] = [:]
        for endpoint in storedEndpoints { wanted[endpoint.id] = endpoint }
        for endpoint in fileEndpoints.withLock({ $0 }) { wanted[endpoint.id] = endpoint }
        for (id, worker) in workers where wanted[id] != worker.endpoint {
            worker.stop()
            workers[id] = nil
        }
        for (id, endpoint) in wanted where workers[id] == nil {
            let sender = self.sender ?? WebhookSender(timeout: settings.attemptTimeout)
            self.sender = sender
            let worker = WebhookWorker(
                endpoint: endpoint, store: store, sender: sender, backoff: settings.backoff, metrics: metrics, logger: logger,
                mayDeliver: { [weak self] in self?.holdsLease ?? false },
                startProgress: { [weak self] id, boards, completion in
                    guard let self else { return completion(.failure(.unavailable("the server stopped"))) }
                    startProgress(of: id, boards: boards, completion)
                })
            workers[id] = worker
            worker.tick()
        }
    }
}
