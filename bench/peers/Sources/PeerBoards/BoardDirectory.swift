import Foundation

/// The boards of one peer server, by id. Only creating a board and joining one go
/// through here; a joined connection talks to its `BoardRoom` directly.
public actor BoardDirectory {
    private var rooms: [String: BoardRoom] = [:]

    public init() {}

    func room(_ id: String) -> BoardRoom? { rooms[id] }

    /// `POST /api/boards`: 201 with the board, 409 if the id is taken, 400 for a bad body.
    public func create(body: Data) async -> (status: Int, json: String) {
        let board: Board
        do {
            board = try JSONDecoder().decode(Board.self, from: body)
        } catch {
            return (400, JSONText.encode(HTTPErrorBody(
                error: "bad request", message: "the body must be {\"id\",\"title\",\"collections\":[{\"id\",\"title\",\"items\":[{\"id\",\"label\"}]}]}")))
        }
        if let problem = board.problem() {
            return (400, JSONText.encode(HTTPErrorBody(error: "bad request", message: problem)))
        }
        if rooms[board.id] != nil {
            return (409, JSONText.encode(HTTPErrorBody(error: "conflict", message: "board \"\(board.id)\" exists")))
        }
        let room = BoardRoom(board: board)
        rooms[board.id] = room
        return (201, await room.documentText())
    }
}
