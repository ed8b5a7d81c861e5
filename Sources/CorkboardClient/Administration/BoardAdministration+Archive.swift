import Foundation
import HTTP

/// What `PUT /api/boards/{id}/archive` answers: the board's id, seq and epoch now.
public struct ImportedBoardAnswer: Sendable, Hashable, Decodable {
    public var id: String
    public var seq: Int
    public var epoch: String
    /// True when a board with this id existed and was replaced.
    public var replaced: Bool
}

extension BoardAdministration {
    /// `PUT /api/boards/{id}/archive`: `archive` (one board's archive, as JSON) into the running
    /// server, as a new board or, with `replace`, in place of one (its members are closed to
    /// join again). The server holds the body to 1 MiB.
    public func importArchive(_ archive: [UInt8], board id: String, replace: Bool) throws(BoardAdministrationError) -> ImportedBoardAnswer {
        let path = "/api/boards/" + Self.pathSegment(id) + "/archive" + (replace ? "?replace=true" : "")
        return try decode(ImportedBoardAnswer.self, from: body(of: exchange(.PUT, path, body: archive)))
    }
}
