import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// A text nested deeper than `JSONParser.maximumDepth` (512) is well-formed JSON the server
/// will not build: it is told so (`nested too deep (more than 512 levels)`), not "malformed
/// JSON", and an operation in it still gets its `rejected` with its opId
/// (docs/protocol.md#7-error-rules).
@Suite struct NestedTooDeepTests {
    private let tooDeep = "nested too deep (more than 512 levels)"

    private func nested(_ levels: Int) -> String {
        String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
    }

    private func failure(_ text: String) -> JSONParser.Failure? {
        do {
            _ = try JSONParser.parse(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// `levels` nested arrays, the innermost holding the null an array past the limit is read as.
    private func outline(_ levels: Int) -> JSONValue {
        var value: JSONValue = .array([.null])
        for _ in 1..<levels { value = .array([value]) }
        return value
    }

    @Test func theParserTellsTooDeepFromMalformed() {
        #expect(failure(nested(512)) == nil)
        #expect(failure(nested(513)) == .nestedTooDeep(outline: outline(512)))
        #expect(failure(nested(100_000)) == .nestedTooDeep(outline: outline(512)))
        // Unclosed, or broken after the deep part: malformed, as before.
        #expect(failure(String(repeating: "[", count: 600)) == .malformed)
        #expect(failure(nested(600) + ",") == .malformed)
        #expect(failure(String(repeating: #"{"a":"#, count: 100_000)) == .malformed)
    }

    @Test func theOutlineKeepsWhatIsWithinTheLimitAndNullsTheRest() {
        // 511 arrays in the message's object reach level 512; the object inside the innermost
        // is level 513, stepped over (brackets in its strings are not counted) and read as null.
        let text =
            #"{"type":"insert","opId":"o1","deep":"# + String(repeating: "[", count: 511)
            + #""]\"[",{"k":"}]["}"# + String(repeating: "]", count: 511) + "}"
        var deep: JSONValue = .array([.string("]\"["), .null])
        for _ in 1..<511 { deep = .array([deep]) }
        #expect(failure(text) == .nestedTooDeep(outline: .object(["type": "insert", "opId": "o1", "deep": deep])))
    }

    @Test func anOperationTooDeepIsRejectedWithItsOpId() {
        let data = String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600)
        let text = #"{"type":"insert","opId":"deep-1","baseSeq":0,"items":[{"id":"x","label":"X","data":"# + data + #"}],"destination":{"collection":"todo"}}"#
        #expect(WireFormat.decodeClientMessage(Data(text.utf8)) == .rejected(Rejected(opId: "deep-1", code: .invalid, message: tooDeep)))
    }

    @Test func anythingElseTooDeepGetsAnError() {
        let expected = DecodedClientMessage.error(ErrorMessage(code: .invalid, message: tooDeep))
        #expect(WireFormat.decodeClientMessage(Data(nested(513).utf8)) == expected)
        let hello = #"{"type":"hello","board":"demo","name":"n","x":"# + nested(600) + "}"
        #expect(WireFormat.decodeClientMessage(Data(hello.utf8)) == expected)
        // Malformed stays malformed.
        #expect(WireFormat.decodeClientMessage(Data("{not json".utf8)) == .error(ErrorMessage(code: .invalid, message: "malformed JSON")))
    }

    @Test func aNewBoardTooDeepIsRefusedAsSuch() {
        let body = #"{"id":"b","title":"B","collections":[],"x":"# + nested(600) + "}"
        #expect(WireFormat.decodeNewBoard(Data(body.utf8)) == .failure(ErrorMessage(code: .invalid, message: tooDeep)))
        #expect(WireFormat.decodeNewBoard(Data("{".utf8)) == .failure(ErrorMessage(code: .invalid, message: "the body must be a JSON object")))
    }
}
