import CorkboardModel
import CorkboardWire

/// The `welcome` of a join (docs/protocol.md#3-joining): the board part is the same bytes for
/// every join at one durable seq, so it is written once per seq and kept until the seq moves
/// on; the peers part is the same for every join while nobody joins, leaves or drags, so it
/// is kept for the roster's version (`welcomePeers`); only the member's own part (client id,
/// role, count) is written per join, and the bytes go to the link as they are. A
/// storm of joins that read a few bytes and leave (issue #31) then costs the board's JSON
/// once, not once per join. Kept until the next welcome at a later seq (one board's JSON per
/// room, freed with the room).
extension BoardRoom {
    /// The `welcome` bytes for a member that gets a snapshot of the durable board.
    func snapshotWelcome(client: ClientID, name: String, hue: Hue?, role: Role, peers: EncodedPeerList, count: Int, tokenExpiresAt: Int?) -> [UInt8] {
        let seq = pipeline.durableSeq
        let welcome = Welcome(
            client: client, role: role, epoch: epoch, seq: seq, resumed: false, board: nil, peers: [], count: count,
            tokenExpiresAt: tokenExpiresAt, name: name, hue: hue)
        return welcome.bytes(board: writtenBoard(at: seq), peers: peers)
    }

    /// The durable board's JSON at `seq`, written now unless it already was at this seq.
    private func writtenBoard(at seq: Int) -> EncodedBoard {
        welcomeBoards.board(epoch: epoch, seq: seq) {
            hub.metrics.welcomeBoardsWritten.increment()
            return EncodedBoard(durableBoard)
        }
    }
}
