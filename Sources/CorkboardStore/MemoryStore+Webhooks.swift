import Foundation

/// The webhook tables of a memory store: kept in this process only, like the boards.
struct MemoryWebhooks: Sendable {
    var endpoints: [String: WebhookEndpointRecord] = [:]
    var progress: [String: WebhookProgress] = [:]
    var notices: [WebhookNotice] = []
    var lastNoticeID = 0

    /// A board created or deleted; a deletion also drops every endpoint's cursor of the board,
    /// so that a board created anew under its id is delivered from seq 1.
    mutating func record(_ kind: WebhookNotice.Kind, board: String) {
        lastNoticeID += 1
        notices.append(WebhookNotice(id: lastNoticeID, kind: kind, board: board, atMilliseconds: WebhookNotice.nowMilliseconds))
        if kind == .deleted {
            for endpoint in progress.keys { progress[endpoint]?.boards[board] = nil }
        }
    }
}

extension MemoryStore: WebhookStore {
    public func webhookEndpoints(_ completion: @escaping @Sendable (Result<[WebhookEndpointRecord], StoreError>) -> Void) {
        completion(.success(webhooks.withLock { $0.endpoints.values.sorted { $0.id < $1.id } }))
    }

    public func addWebhookEndpoint(_ endpoint: WebhookEndpointRecord, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        completion(
            webhooks.withLock { tables in
                guard tables.endpoints[endpoint.id] == nil else { return .failure(.alreadyExists) }
                tables.endpoints[endpoint.id] = endpoint
                return .success(())
            })
    }

    public func removeWebhookEndpoint(id: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        completion(
            webhooks.withLock { tables in
                guard tables.endpoints.removeValue(forKey: id) != nil else { return .failure(.notFound) }
                tables.progress[id] = nil
                return .success(())
            })
    }

    public func webhookProgress(endpoint: String, _ completion: @escaping @Sendable (Result<WebhookProgress, StoreError>) -> Void) {
        completion(.success(webhooks.withLock { $0.progress[endpoint] ?? WebhookProgress(notices: nil, boards: [:], status: nil) }))
    }

    public func startWebhookProgress(
        endpoint: String, boards: [String: Int], _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        webhooks.withLock { tables in
            guard tables.progress[endpoint]?.notices == nil else { return }
            let status = tables.progress[endpoint]?.status
            tables.progress[endpoint] = WebhookProgress(notices: tables.lastNoticeID, boards: boards, status: status)
        }
        completion(.success(()))
    }

    public func advanceWebhookCursor(
        endpoint: String, stream: WebhookStream, to position: Int, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        webhooks.withLock { tables in
            var progress = tables.progress[endpoint] ?? WebhookProgress(notices: nil, boards: [:], status: nil)
            switch stream {
            case .notices: progress.notices = position
            case .board(let board): progress.boards[board] = position
            }
            tables.progress[endpoint] = progress
        }
        completion(.success(()))
    }

    public func recordWebhookStatus(endpoint: String, status: String, _ completion: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        webhooks.withLock { tables in
            var progress = tables.progress[endpoint] ?? WebhookProgress(notices: nil, boards: [:], status: nil)
            progress.status = status
            tables.progress[endpoint] = progress
        }
        completion(.success(()))
    }

    public func webhookNotices(after id: Int, limit: Int, _ completion: @escaping @Sendable (Result<[WebhookNotice], StoreError>) -> Void) {
        completion(.success(webhooks.withLock { Array($0.notices.filter { $0.id > id }.prefix(max(0, limit))) }))
    }

    public func holdWebhookLease(node: String, seconds: Double, _ completion: @escaping @Sendable (Result<Bool, StoreError>) -> Void) {
        completion(.success(true))
    }
}
