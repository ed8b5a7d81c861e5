import CorkboardHub
import CorkboardModel
import CorkboardStore
import CorkboardWire
import Dispatch
import Foundation
import HTTP
import Synchronization

/// `/api/webhooks` (docs/protocol.md#webhooks): an owner of every board lists, makes and
/// deletes webhook endpoints. Those made here are stored (every node sharing the store knows
/// them); those of the webhooks file are listed too, marked `"source":"file"`, and are changed
/// only in the file (a `DELETE` of one answers 409).
enum WebhookRoutes {
    static func add(to routes: inout APIRouteTable, webhooks: WebhookDeliverer?) {
        routes.add(.GET, "/api/webhooks", administrator) { request, _, responder in
            guard let webhooks = available(webhooks, responder) else { return }
            guard let page = ListPage.read(request, responder) else { return }
            endpoints(webhooks, responder) { endpoints in
                let shown = page.slice(endpoints) { $0.id }
                listings(shown.entries, webhooks, responder) { listed in
                    responder.respond(BoardAPI.json(.ok, WebhookPage(webhooks: listed, next: shown.next)))
                }
            }
        }

        routes.add(.GET, "/api/webhooks/{id}", administrator) { request, _, responder in
            guard let webhooks = available(webhooks, responder) else { return }
            guard QueryParameters.read(request, responder) != nil else { return }
            let id = request.pathParameters["id"] ?? ""
            endpoints(webhooks, responder) { endpoints in
                guard let endpoint = endpoints.first(where: { $0.id == id }) else {
                    return responder.respond(.error(.notFound, "no webhook \"\(id)\""))
                }
                listings([endpoint], webhooks, responder) { listed in responder.respond(BoardAPI.json(.ok, listed[0])) }
            }
        }

        routes.add(.POST, "/api/webhooks", administrator) { request, _, responder in
            guard let webhooks = available(webhooks, responder) else { return }
            guard QueryParameters.read(request, responder) != nil else { return }
            let fields: WebhookEntry.Fields
            do {
                fields = try WebhookEntry.fields(try StrictJSON.parse(Data(request.body)), idAllowed: false)
            } catch let error as WebhookEntryError {
                return responder.respond(.error(.badRequest, error.description))
            } catch {
                return responder.respond(.error(.badRequest, "the body must be JSON: \(WebhookEntry.shape)"))
            }
            let record = WebhookEndpointRecord(
                id: WebhookEndpoint.makeID(), url: fields.url.description, secret: (fields.secret ?? .generate()).text, boards: fields.boards,
                createdAt: Date())
            let store = webhooks.store
            store.addWebhookEndpoint(record) { added in
                if case .failure(let error) = added { return responder.respond(storeFailure(error)) }
                // Started before the answer: what is committed after it reaches the endpoint.
                webhooks.startProgress(of: record.id, boards: record.boards.map(Set.init)) { started in
                    if case .failure(let error) = started { return responder.respond(storeFailure(error)) }
                    responder.respond(
                        BoardAPI.json(
                            .created,
                            WebhookCreated(
                                id: record.id, url: record.url, boards: record.boards, source: WebhookEndpoint.Origin.api.rawValue,
                                createdAt: record.createdAtMilliseconds, secret: record.secret)))
                }
            }
        }

        routes.add(.DELETE, "/api/webhooks/{id}", administrator) { request, _, responder in
            guard let webhooks = available(webhooks, responder) else { return }
            guard QueryParameters.read(request, responder) != nil else { return }
            let id = request.pathParameters["id"] ?? ""
            if webhooks.fileEndpoints.withLock({ $0.contains { $0.id == id } }) {
                return responder.respond(.error(.conflict, "the webhook \"\(id)\" comes from the webhooks file: remove it there and reload (SIGHUP)"))
            }
            webhooks.store.removeWebhookEndpoint(id: id) { result in
                switch result {
                case .success: responder.respond(HTTPResponse(status: .noContent))
                case .failure(.notFound): responder.respond(.error(.notFound, "no webhook \"\(id)\""))
                case .failure(let error): responder.respond(storeFailure(error))
                }
            }
        }
    }

    /// Every endpoint, the file's and the store's, ordered by id.
    private static func endpoints(_ webhooks: WebhookDeliverer, _ responder: HTTPResponder, _ then: @escaping @Sendable ([WebhookEndpoint]) -> Void) {
        webhooks.store.webhookEndpoints { result in
            switch result {
            case .failure(let error):
                responder.respond(storeFailure(error))
            case .success(let records):
                let file = webhooks.fileEndpoints.withLock { $0 }
                let stored = records.compactMap(WebhookEndpoint.init(record:)).filter { record in !file.contains { $0.id == record.id } }
                then((file + stored).sorted { $0.id < $1.id })
            }
        }
    }

    /// The listings of `endpoints`, each with its progress against the boards' seqs now.
    private static func listings(
        _ endpoints: [WebhookEndpoint], _ webhooks: WebhookDeliverer, _ responder: HTTPResponder,
        _ then: @escaping @Sendable ([WebhookListing]) -> Void
    ) {
        webhooks.store.listBoards { listed in
            guard case .success(let boards) = listed else { return responder.respond(storeFailure(listed.failure)) }
            let gathered = Mutex<[String: WebhookListing]>([:])
            let group = DispatchGroup()
            let failed = Mutex<StoreError?>(nil)
            for endpoint in endpoints {
                group.enter()
                webhooks.store.webhookProgress(endpoint: endpoint.id) { result in
                    switch result {
                    case .success(let progress):
                        gathered.withLock { $0[endpoint.id] = WebhookListing(endpoint, progress: progress, boards: boards) }
                    case .failure(let error):
                        failed.withLock { $0 = error }
                    }
                    group.leave()
                }
            }
            group.notify(queue: .global()) {
                if let error = failed.withLock({ $0 }) { return responder.respond(storeFailure(error)) }
                let listings = gathered.withLock { listed in endpoints.compactMap { listed[$0.id] } }
                then(listings)
            }
        }
    }

    private static func storeFailure(_ error: StoreError?) -> HTTPResponse {
        .error(.serviceUnavailable, "the store cannot be used now: \(error.map { "\($0)" } ?? "no answer")")
    }

    /// The deliverer, after answering 503 when this server has none (a store without webhooks).
    private static func available(_ webhooks: WebhookDeliverer?, _ responder: HTTPResponder) -> WebhookDeliverer? {
        if webhooks == nil { responder.respond(.error(.serviceUnavailable, "this server's store keeps no webhooks")) }
        return webhooks
    }

    /// An owner of every board: an endpoint receives the events of every board it names.
    private static let administrator = RouteAccess.administrator(refusal: "only an owner of every board (\"boards\": \"*\") may manage webhooks")
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
