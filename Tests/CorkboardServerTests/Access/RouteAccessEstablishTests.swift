import CorkboardHub
import CorkboardModel
import CorkboardStore
import Foundation
import HTTP
import Logging
import Testing

@testable import CorkboardServer

/// What each `RouteAccess` establishes from a request, tested directly (no socket, no handler):
/// the 400 of an `Authorization` of another form, the 401 of no token or one that proves nothing,
/// the 403 of a token without the access, and the grant a handler is given otherwise.
struct RouteAccessEstablishTests {
    static let hub: Hub = {
        var logger = Logger(label: "route-access-establish-test")
        logger.logLevel = .critical
        let access = ServerAccess(
            file: try! TokenFile(grants: [
                TokenFile.Grant(token: "owner", role: .owner, boards: .all, name: "Olive"),
                TokenFile.Grant(token: "demo-owner", role: .owner, boards: ["demo"], name: "Bo"),
                TokenFile.Grant(token: "demo-viewer", role: .viewer, boards: ["demo"], name: "Vi"),
            ]), signed: nil)
        return Hub(store: MemoryStore(), access: access, logger: logger)
    }()

    static let openHub: Hub = {
        var logger = Logger(label: "route-access-establish-test")
        logger.logLevel = .critical
        return Hub(store: MemoryStore(), logger: logger)
    }()

    static func request(_ method: HTTPMethod = .GET, _ target: String = "/api/boards/demo", token: String?, body: String = "") -> HTTPRequest {
        var headers: HTTPHeaders = [:]
        if let token { headers.set("Authorization", "Bearer \(token)") }
        var request = HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
        request.pathParameters = ["id": "demo"]
        return request
    }

    /// The grant, or an error (the test fails) naming the refusal.
    static func granted<Grant>(_ outcome: AccessOutcome<Grant>) throws -> Grant {
        switch outcome {
        case .granted(let grant): return grant
        case .refused(let response): throw RefusedUnexpectedly(status: response.status.code, body: String(decoding: response.body, as: UTF8.self))
        }
    }

    static func refusal<Grant>(_ outcome: AccessOutcome<Grant>) -> (status: Int, message: String, challenge: String?)? {
        guard case .refused(let response) = outcome else { return nil }
        let message = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["message"] as? String ?? ""
        return (response.status.code, message, response.headers["WWW-Authenticate"])
    }

    struct RefusedUnexpectedly: Error {
        let status: Int
        let body: String
    }

    @Test func noTokenIs401WithABearerChallengeAndAnUnknownOneIsAnInvalidToken() throws {
        let missing = try #require(Self.refusal(RouteAccess.holder.establish(Self.request(token: nil), Self.hub)))
        #expect(missing.status == 401 && missing.challenge == "Bearer" && missing.message == "a token is needed: Authorization: Bearer <token>")
        let unknown = try #require(Self.refusal(RouteAccess.holder.establish(Self.request(token: "nobody"), Self.hub)))
        #expect(unknown.status == 401 && unknown.challenge == #"Bearer error="invalid_token""#)
        var basic = Self.request(token: nil)
        basic.headers.set("Authorization", "Basic b3duZXI6eA==")
        let malformed = try #require(Self.refusal(RouteAccess.boardMember.establish(basic, Self.hub)))
        #expect(malformed.status == 400 && malformed.message == "Authorization must be \"Bearer <token>\"")
    }

    @Test func aBoardRouteHandsItsHandlerTheBoardTheRoleTheHolderAndTheToken() throws {
        let access = try Self.granted(RouteAccess.boardMember.establish(Self.request(token: "demo-viewer"), Self.hub))
        #expect(access.board == "demo" && access.role == .viewer && access.token == "demo-viewer" && access.holder.grantName == "Vi")
        var elsewhere = Self.request(.GET, "/api/boards/other", token: "demo-viewer")
        elsewhere.pathParameters = ["id": "other"]
        let refused = try #require(Self.refusal(RouteAccess.boardMember.establish(elsewhere, Self.hub)))
        #expect(refused.status == 403 && refused.message == "the token is not valid for board \"other\"")
    }

    @Test func anOwnersRouteRefusesAnotherRoleWithItsOwnWords() throws {
        let owner = RouteAccess.boardOwner(refusal: "only an owner may delete a board")
        let refused = try #require(Self.refusal(owner.establish(Self.request(.DELETE, token: "demo-viewer"), Self.hub)))
        #expect(refused.status == 403 && refused.message == "only an owner may delete a board")
        #expect(try Self.granted(owner.establish(Self.request(.DELETE, token: "demo-owner"), Self.hub)).role == .owner)
        let administrator = RouteAccess.administrator(refusal: "only an owner of every board")
        let notEvery = try #require(Self.refusal(administrator.establish(Self.request(token: "demo-owner"), Self.hub)))
        #expect(notEvery.status == 403 && notEvery.message == "only an owner of every board")
        #expect(try Self.granted(administrator.establish(Self.request(token: "owner"), Self.hub)).isAdministrator)
    }

    /// `POST /api/boards`: its query, then its body (which names the board), then the token.
    @Test func aNewBoardIsJudgedByTheBoardItsBodyNames() throws {
        let access = RouteAccess.ownerOfNewBoard(refusal: "only an owner may create boards")
        let body = #"{"id":"demo","title":"Demo","collections":[]}"#
        let query = try #require(Self.refusal(access.establish(Self.request(.POST, "/api/boards?foo=1", token: nil, body: body), Self.hub)))
        #expect(query.status == 400 && query.message.contains("foo"))
        let notABoard = try #require(Self.refusal(access.establish(Self.request(.POST, "/api/boards", token: nil, body: "{}"), Self.hub)))
        #expect(notABoard.status == 400)
        let noToken = try #require(Self.refusal(access.establish(Self.request(.POST, "/api/boards", token: nil, body: body), Self.hub)))
        #expect(noToken.status == 401)
        let viewer = try #require(Self.refusal(access.establish(Self.request(.POST, "/api/boards", token: "demo-viewer", body: body), Self.hub)))
        #expect(viewer.status == 403 && viewer.message == "only an owner may create boards")
        let new = try Self.granted(access.establish(Self.request(.POST, "/api/boards", token: "demo-owner", body: body), Self.hub))
        #expect(new.board.id == "demo" && new.access.board == "demo" && new.access.role == .owner)
    }

    @Test func inOpenModeEveryRouteLetsEveryoneInAsAnOwner() throws {
        let access = try Self.granted(RouteAccess.boardOwner(refusal: "").establish(Self.request(token: nil), Self.openHub))
        #expect(access.role == .owner && access.token == nil)
        #expect(try Self.granted(RouteAccess.administrator(refusal: "").establish(Self.request(token: nil), Self.openHub)).isAdministrator)
    }
}
