import CorkboardModel
import CorkboardWire
import Foundation
import Testing

/// `hello`'s `resume.seq` past every seq a board reaches (beyond ±(2^53 − 1), however large)
/// names no seq: the hello is taken as one without `resume`, which the server answers with a
/// full snapshot (`"resumed":false`, docs/protocol.md#resume), instead of refusing it as "not
/// an integer".
@Suite struct ResumeSeqTests {
    private func hello(seq: String) -> DecodedClientMessage {
        WireFormat.decodeClientMessage(Data(#"{"type":"hello","board":"demo","name":"n","resume":{"epoch":"e1","seq":\#(seq)}}"#.utf8))
    }

    @Test(arguments: ["9007199254740992", "9007199254740993", "9223372036854775807", "18446744073709551616", "1e300", "-9007199254740992", "-1e300"])
    func aSeqNoBoardReachesResumesNothing(seq: String) {
        #expect(hello(seq: seq) == .message(.hello(Hello(board: "demo", name: "n", resume: nil))), "\(seq)")
    }

    @Test(arguments: [("9007199254740991", Limits.maximumSeq), ("0", 0), ("-3", -3), ("42.0", 42)])
    func aSeqWithinTheRangeIsKept(seq: String, value: Int) {
        #expect(hello(seq: seq) == .message(.hello(Hello(board: "demo", name: "n", resume: ResumePoint(epoch: "e1", seq: value)))))
    }

    @Test(arguments: ["1.5", "\"7\"", "null", "true"])
    func aSeqThatIsNoIntegerIsStillAnError(seq: String) {
        #expect(hello(seq: seq) == .error(ErrorMessage(code: .invalid, message: #"field "seq" must be an integer"#)), "\(seq)")
    }
}
