import CorkboardWire
import Foundation
import Testing

/// `hello`'s `hue` (docs/protocol.md#colours): an integer from 0 to 359, or null or absent
/// for none; anything else is an ill-typed field. The others see it beside the name, and
/// only when it was chosen, so the bytes of a peer without one stay as they were.
struct HelloHueTests {
    static func hello(_ hue: String) -> DecodedClientMessage {
        WireFormat.decodeClientMessage(Data(#"{"type":"hello","board":"demo","name":"Ada"\#(hue)}"#.utf8))
    }

    @Test(arguments: [(#","hue":0"#, Hue?.some(0)), (#","hue":359"#, 359), (#","hue":200"#, 200), (#","hue":null"#, nil), ("", nil)])
    func aHueFromZeroTo359OrNoneIsTaken(_ field: String, _ hue: Hue?) {
        #expect(Self.hello(field) == .message(.hello(Hello(board: "demo", name: "Ada", hue: hue))))
    }

    @Test(arguments: [
        #","hue":-1"#, #","hue":360"#, #","hue":65536"#, #","hue":12.5"#, #","hue":"120""#, #","hue":true"#, #","hue":[120]"#,
    ])
    func anyOtherHueIsInvalid(_ field: String) {
        let refusal: ErrorMessage? = if case .error(let error) = Self.hello(field) { error } else { nil }
        #expect(refusal?.code == .invalid, "not refused: \(Self.hello(field))")
    }

    @Test func aClientSaysItsHueOnlyWhenItChoseOne() throws {
        let chosen = String(decoding: try WireFormat.encode(ClientMessage.hello(Hello(board: "b", name: "n", hue: 30))), as: UTF8.self)
        let none = String(decoding: try WireFormat.encode(ClientMessage.hello(Hello(board: "b", name: "n"))), as: UTF8.self)
        #expect(chosen == #"{"board":"b","hue":30,"name":"n","type":"hello"}"#)
        #expect(none == #"{"board":"b","name":"n","type":"hello"}"#)
    }

    @Test func peerJoinedCarriesTheHueOnlyWhenThereIsOne() throws {
        let withHue = String(decoding: try WireFormat.encode(ServerMessage.peerJoined(client: "c7", name: "Ada", hue: 200)), as: UTF8.self)
        let without = String(decoding: try WireFormat.encode(ServerMessage.peerJoined(client: "c7", name: "Ada")), as: UTF8.self)
        #expect(withHue == #"{"client":"c7","hue":200,"name":"Ada","type":"peer.joined"}"#)
        #expect(without == #"{"client":"c7","name":"Ada","type":"peer.joined"}"#)
        let decoded = try WireFormat.decodeServerMessage(Data(withHue.utf8))
        #expect(decoded == .peerJoined(client: "c7", name: "Ada", hue: 200))
    }

    @Test func aListedPeerIsWrittenAsTheEncoderWritesIt() throws {
        for peer in [Peer(client: "c1", name: "Ada", hue: 0), Peer(client: "c2", name: "Bob")] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            #expect(peer.jsonByteCount == (try encoder.encode(peer)).count)
            #expect(try JSONDecoder().decode(Peer.self, from: encoder.encode(peer)) == peer)
        }
        let change = PeersChange(
            count: 2, joined: [PeerName(client: "c1", name: "Ada", hue: 5), PeerName(client: "c2", name: "Bob")], left: [], truncated: false)
        let text = String(decoding: try WireFormat.encode(ServerMessage.peers(change)), as: UTF8.self)
        #expect(text.contains(#"{"client":"c1","hue":5,"name":"Ada"}"#))
        #expect(text.contains(#"{"client":"c2","name":"Bob"}"#))
    }
}
