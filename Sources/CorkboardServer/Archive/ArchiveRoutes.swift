import CorkboardHub
import CorkboardModel
import CorkboardStore
import CorkboardWire
import Foundation
import HTTP

/// `/api/boards/{id}/archive` (docs/protocol.md#8-http-api): an owner of the board exports it
/// as an archive (`GET`, with `?history=true` its kept log) and imports one into a running
/// server (`PUT`, `?replace=true` over an existing board), the same archives `corkboard export`
/// and `corkboard import` read and write.
enum ArchiveRoutes {
    static func add(to routes: inout APIRouteTable, hub: Hub) {
        routes.add(.GET, "/api/boards/{id}/archive", owner) { request, access, responder in
            guard let history = flag("history", of: request, responder) else { return }
            hub.archive(board: access.board, history: history) { result in
                responder.respond(
                    result.map { archive in
                        do {
                            return .json(.ok, Array(try archive.encoded()))
                        } catch {
                            return .error(.internalServerError, "the archive could not be encoded: \(error)")
                        }
                    })
            }
        }

        routes.add(.PUT, "/api/boards/{id}/archive", owner) { request, access, responder in
            let board = access.board
            guard let replacing = flag("replace", of: request, responder) else { return }
            let archive: BoardArchive
            do throws(ArchiveDecodingError) {
                archive = try BoardArchive.decode(Data(request.body))
            } catch {
                return responder.respond(.error(.badRequest, "the body is not a board archive: \(error)"))
            }
            guard archive.board.id == board else {
                return responder.respond(
                    .error(.badRequest, "the archive is of board \(String(reflecting: archive.board.id)), not of \(String(reflecting: board))"))
            }
            let problems = archive.validationProblems(limits: hub.configuration.boardSizeLimits)
            guard problems.isEmpty else {
                let more = problems.count > 3 ? " (and \(problems.count - 3) more)" : ""
                return responder.respond(.error(.badRequest, problems.prefix(3).joined(separator: "; ") + more))
            }
            hub.importBoard(archive, replacing: replacing) { result in
                switch result {
                case .success(let imported):
                    responder.respond(BoardAPI.json(imported.replacedExisting ? .ok : .created, ImportedBoardBody(imported)))
                case .failure(.alreadyExists):
                    responder.respond(.error(.conflict, "a board with this id already exists; ?replace=true replaces it"))
                case .failure(let error):
                    responder.respond(.error(error.status, error.description))
                }
            }
        }
    }

    /// The answer of an import: the board's id, seq and epoch now, and whether it replaced one.
    struct ImportedBoardBody: Encodable {
        var id: String
        var seq: Int
        var epoch: String
        var replaced: Bool

        init(_ imported: ImportedBoard) {
            id = imported.id
            seq = imported.seq
            epoch = imported.epoch
            replaced = imported.replacedExisting
        }
    }

    /// The one query parameter a route takes, `name=true|false` (false when absent), or nil
    /// after answering 400 for any other parameter, a repeat, or another value.
    private static func flag(_ name: String, of request: HTTPRequest, _ responder: HTTPResponder) -> Bool? {
        guard let parameters = QueryParameters.read(request, accepting: [name], responder) else { return nil }
        switch parameters[name] {
        case nil, "false": return false
        case "true": return true
        case let value?:
            responder.respond(.error(.badRequest, "\(name) must be true or false, not \(String(reflecting: value))"))
            return nil
        }
    }

    /// An owner of the board: an archive is all of it, and an import replaces it.
    private static let owner = RouteAccess.boardOwner(refusal: "only an owner of the board may export or import it")
}
