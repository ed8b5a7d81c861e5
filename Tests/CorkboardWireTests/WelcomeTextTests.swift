import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// `Welcome.text(board:)` splices a board written once (`EncodedBoard`) into each member's
/// welcome: byte for byte what `WireFormat.text` gives for the same welcome with the board in
/// it; and `MembershipLimits.fitting` cuts a list of peers at its byte bound.
@Suite struct WelcomeTextTests {
    static let board = Board(
        id: "b/1", title: JSONWriterTests.awkward, locked: true,
        collections: [
            BoardCollection(
                id: "todo", title: "To do",
                items: [
                    Item(id: "i1", label: "One", data: JSONWriterTests.data), Item(id: "f1", label: "Folder", folder: Folder(accepts: true)),
                ]),
            BoardCollection(id: JSONWriterTests.awkward, title: "", items: []),
        ],
        folders: ["f1": [Item(id: "f2", label: "Deeper", folder: Folder(accepts: false))], "f2": [Item(id: "a", label: "In")]])

    static let peers = [
        Peer(client: "c1", name: JSONWriterTests.awkward, drag: nil),
        Peer(client: "c2", name: "Ada", drag: DragState(items: ["i1", JSONWriterTests.awkward], over: nil)),
        Peer(client: "c3", name: "Grace", drag: DragState(items: ["i1"], over: DragTarget(collection: "todo", index: 1, before: "f1"))),
        Peer(client: "c4", name: "Hedy", drag: DragState(items: [], collections: ["todo"], over: DragTarget(collection: nil, index: 0, before: "done"))),
    ]

    @Test(arguments: [false, true])
    func aWelcomeWithTheBoardWrittenOnceIsTheEncodersWelcome(resumed: Bool) throws {
        var welcome = Welcome(
            client: "c9", role: .editor, epoch: "ff894259f626a77a", seq: 42, resumed: resumed, board: nil, peers: Self.peers, count: 7,
            name: JSONWriterTests.awkward)
        let text = welcome.text(board: resumed ? nil : EncodedBoard(Self.board))
        if !resumed { welcome.board = Self.board }
        #expect(text == (try WireFormat.text(.welcome(welcome))))
    }

    /// A written board is kept until its board's next seq: it keeps its own bytes, not the
    /// 64 KiB the writer reserved for them.
    @Test func aWrittenBoardKeepsNoMoreThanItsBytes() {
        let encoded = EncodedBoard(Self.board)
        #expect(encoded.bytes.count < 1024)
        #expect(encoded.bytes.capacity < encoded.bytes.count + 64)
    }

    /// The room's path (issue #36): the peers written once too, the bytes handed over as
    /// they are; the same bytes as the encoder's.
    @Test(arguments: [false, true])
    func aWelcomeWithThePeersWrittenOnceIsTheEncodersWelcome(resumed: Bool) throws {
        var welcome = Welcome(
            client: "c9", role: .viewer, epoch: "ff894259f626a77a", seq: 42, resumed: resumed, board: nil, peers: [], count: 7,
            tokenExpiresAt: 1_700_000_000_000, name: "Ada")
        let peers = EncodedPeerList(Self.peers)
        let bytes = welcome.bytes(board: resumed ? nil : EncodedBoard(Self.board), peers: peers)
        // Spliced twice (a kept list serves many joins): the list is not consumed.
        #expect(welcome.bytes(board: resumed ? nil : EncodedBoard(Self.board), peers: peers) == bytes)
        if !resumed { welcome.board = Self.board }
        welcome.peers = Self.peers
        #expect(String(decoding: bytes, as: UTF8.self) == (try WireFormat.text(.welcome(welcome))))
        #expect(EncodedPeerList([]).bytes == Array("[]".utf8))
    }

    @Test func anEmptyBoardAndNoPeersToo() throws {
        let board = Board(id: "e", title: "Empty")
        let welcome = Welcome(client: "c1", role: .owner, epoch: "e", seq: 0, resumed: false, board: nil, peers: [])
        var full = welcome
        full.board = board
        #expect(welcome.text(board: EncodedBoard(board)) == (try WireFormat.text(.welcome(full))))
    }

    @Test func aListOfPeersEndsAtItsByteBound() throws {
        let name = String(repeating: "n", count: Limits.maximumNameBytes)
        let peers = (0..<200).map { Peer(client: "c\($0)", name: name) }
        let fitting = MembershipLimits.fitting(peers, atLeastOne: true)
        let json = try WireFormat.encode(fitting)
        #expect(json.count <= MembershipLimits.listedPeerBytes)
        #expect(fitting.count < peers.count && fitting == Array(peers.prefix(fitting.count)))
        let oneMore = try WireFormat.encode(Array(peers.prefix(fitting.count + 1)))
        #expect(oneMore.count > MembershipLimits.listedPeerBytes, "as many as fit")
        #expect(Self.peers.allSatisfy { $0.jsonByteCount == (try? WireFormat.encode($0).count) })

        // Written once each, a welcome's list keeps the same peers as `fitting`.
        #expect(EncodedPeerList(fitting: peers) == EncodedPeerList(fitting))
        #expect(EncodedPeerList(fitting: peers).bytes.count <= MembershipLimits.listedPeerBytes + 2)
        #expect(EncodedPeerList(fitting: Self.peers) == EncodedPeerList(Self.peers))

        // A drag of many items alone passes the bound: a page lists it, a welcome does not.
        let dragger = Peer(client: "c0", name: "D", drag: DragState(items: (0..<1_000).map { "item-\($0)-" + name }, over: nil))
        #expect(MembershipLimits.fitting([dragger] + peers, atLeastOne: true) == [dragger])
        #expect(MembershipLimits.fitting([dragger] + peers, atLeastOne: false).isEmpty)
        #expect(EncodedPeerList(fitting: [dragger] + peers) == EncodedPeerList([]))
    }
}
