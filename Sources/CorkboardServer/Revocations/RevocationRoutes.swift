import CorkboardHub
import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import HTTP

/// `/api/revocations` (docs/security.md#revoking-tokens): an owner of every board lists,
/// makes and takes back revocations of signed tokens. A revocation is stored, so every node
/// sharing the store refuses the tokens, and the members holding them are disconnected on
/// every node at once.
enum RevocationRoutes {
    static func add(to routes: inout APIRouteTable, hub: Hub) {
        routes.add(.GET, "/api/revocations", administrator) { request, _, responder in
            guard let page = ListPage.read(request, responder) else { return }
            hub.listRevocations { result in
                responder.respond(
                    result.map { revocations in
                        // In pages by what they name: `sub` before `jti`, each by its value.
                        let listed = page.slice(revocations) { $0.target.kind + ":" + $0.target.value }
                        var body: [String: JSONValue] = ["revocations": .array(listed.entries.map(RevocationEntry.json))]
                        if let next = listed.next { body["next"] = .string(next) }
                        return BoardAPI.json(.ok, JSONValue.object(body))
                    })
            }
        }

        routes.add(.POST, "/api/revocations", administrator) { request, _, responder in
            guard QueryParameters.read(request, responder) != nil else { return }
            let now = Date()
            let revocation: TokenRevocation
            do {
                let body = try StrictJSON.parse(Data(request.body))
                revocation = try RevocationEntry.revocation(body, defaultIssuedBefore: RevocationEntry.issuedBefore(revokingAt: now), now: now)
            } catch let error as RevocationEntryError {
                return responder.respond(.error(.badRequest, error.description))
            } catch {
                return responder.respond(.error(.badRequest, "the body must be JSON: \(RevocationEntry.shape)"))
            }
            hub.revoke(revocation) { result in responder.respond(result.map { BoardAPI.json(.created, RevocationEntry.json(revocation)) }) }
        }

        routes.add(.DELETE, "/api/revocations", administrator) { request, _, responder in
            guard let parameters = QueryParameters.read(request, accepting: ["sub", "jti"], responder) else { return }
            guard parameters.count == 1, let (kind, value) = parameters.first, let target = TokenRevocation.target(kind: kind, value: value) else {
                return responder.respond(.error(.badRequest, "name the revocation to take back: ?sub=USER or ?jti=TOKEN_ID"))
            }
            hub.withdrawRevocation(of: target) { result in
                switch result {
                case .success: responder.respond(HTTPResponse(status: .noContent))
                case .failure(.notFound): responder.respond(.error(.notFound, "no revocation of \(target.kind) \"\(target.value)\""))
                case .failure(let error): responder.respond(.error(error.status, error.description))
                }
            }
        }
    }

    /// An owner of every board (as for `/metrics`): a revocation reaches every board's members.
    private static let administrator = RouteAccess.administrator(refusal: "only an owner of every board (\"boards\": \"*\") may revoke tokens")
}
