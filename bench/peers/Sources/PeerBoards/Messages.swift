/// The wire messages of the protocol subset the peers speak (docs/protocol.md#3-joining,
/// docs/protocol.md#4-operations).

/// A client message, decoded once into one struct whose fields are optional: which ones
/// must be there depends on `type`.
struct ClientMessage: Decodable {
    var type: String
    var board: String?
    var name: String?
    var opId: String?
    var baseSeq: Int?
    var sources: [String]?
    var destination: Destination?
}

/// Read when a message does not decode as a whole, to tell an operation with a usable
/// `opId` (answered `rejected`) from anything else (answered `error`).
struct OperationIdentity: Decodable {
    var type: String?
    var opId: String?
}

public struct Destination: Codable, Sendable, Equatable {
    public var collection: String
    public var before: String?

    private enum CodingKeys: String, CodingKey { case collection, before }

    public init(collection: String, before: String?) {
        self.collection = collection
        self.before = before
    }

    // `before` is written as null rather than left out, as Corkboard writes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(collection, forKey: .collection)
        try container.encode(before, forKey: .before)
    }
}

struct Welcome: Encodable {
    let type = "welcome"
    var client: String
    let role = "owner"
    var epoch: String
    var seq: Int
    let resumed = false
    var board: Board
    let peers: [String] = []
}

struct MoveOperation: Encodable {
    let type = "move"
    var sources: [String]
    var destination: Destination
}

struct Committed: Encodable {
    let type = "committed"
    var seq: Int
    var opId: String
    var client: String
    var op: MoveOperation
    let adjusted = false
}

struct Rejected: Encodable {
    let type = "rejected"
    var opId: String
    var code: String
    var message: String
}

struct ErrorMessage: Encodable {
    let type = "error"
    var code: String
    var message: String
}

/// `POST /api/boards` answers with the board as `GET /api/boards/{id}` would: the board's
/// fields with `seq` and `epoch` added at the top level.
struct BoardDocument: Encodable {
    var board: Board
    var seq: Int
    var epoch: String

    private enum CodingKeys: String, CodingKey { case seq, epoch }

    func encode(to encoder: any Encoder) throws {
        try board.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(epoch, forKey: .epoch)
    }
}

/// An HTTP error body, shaped like Corkboard's: `{"error":"conflict","message":"..."}`.
struct HTTPErrorBody: Encodable {
    var error: String
    var message: String
}
