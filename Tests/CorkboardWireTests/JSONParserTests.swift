import CorkboardModel
import Foundation
import Testing

@testable import CorkboardWire

/// The parser every client message goes through: RFC 8259 and nothing more, the same values
/// Foundation's `JSONDecoder` gives for the texts both accept, and a round trip of random
/// values through `JSONEncoder`.
@Suite struct JSONParserTests {
    private func parse(_ text: String) -> JSONValue? { try? JSONParser.parse(Data(text.utf8)) }

    @Test func valuesOfEveryKind() {
        #expect(
            parse(#" {"a" : [1, -0.5, 2e3, 1E-2, true, false, null, "x"], "b": {}} "#)
                == .object([
                    "a": .array([.number(1), .number(-0.5), .number(2000), .number(0.01), .bool(true), .bool(false), .null, .string("x")]),
                    "b": .object([:]),
                ]))
        #expect(parse("[]") == .array([]))
        #expect(parse("\t\r\n 42 \n") == .number(42))
        #expect(parse("-0") == .number(-0.0))
        #expect(parse(#""top""#) == .string("top"))
        // A repeated key keeps its last value.
        #expect(parse(#"{"k":1,"k":2}"#) == .object(["k": .number(2)]))
    }

    @Test func stringEscapesAndUnicode() {
        #expect(parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(parse(#""\u00e9\u4e2d\ud83d\ude00 é中😀""#) == .string("é中😀 é中😀"))
        #expect(parse(#""\u0000""#) == .string("\u{0}"))
        #expect(parse(#"{"\u0074ype":"move"}"#) == .object(["type": .string("move")]))
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "{\"a\" 1}", "{a:1}", "{'a':1}",
        "01", "1.", ".5", "+1", "1e", "1e+", "-", "--1", "0x10", "NaN", "Infinity", "-Infinity", "1e400",
        "tru", "nul", "True", "\"abc", "\"a\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\ud800\"", "\"\\ud800\\u0041\"",
        "\"\\udc00\"", "\"tab\there\"", "{} x", "[1] [2]", "// c\n1", "/* c */ 1", "[1 2]", "\"\\",
    ])
    func malformedTextsAreRefused(text: String) {
        #expect(parse(text) == nil, "\(text.debugDescription)")
    }

    @Test func invalidUTF8IsRefused() {
        #expect((try? JSONParser.parse(Data([0x22, 0xC3, 0x28, 0x22]))) == nil)
        #expect((try? JSONParser.parse(Data([0x22, 0x5C, 0x6E, 0xFF, 0x22]))) == nil)
        #expect((try? JSONParser.parse(Data([0x22, 0xC3, 0xA9, 0x22]))) == .string("é"))
    }

    @Test func nestingIsBounded() {
        let deepest = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(parse(deepest) != nil)
        #expect(parse("[" + deepest + "]") == nil)
        #expect(parse(String(repeating: "{\"a\":", count: 100_000)) == nil)
    }

    /// The texts both accept give the same values as the decoder the parser replaced.
    @Test(arguments: [
        #"{"type":"move","opId":"o1","baseSeq":42,"sources":["a","b"],"destination":{"collection":"done","before":null}}"#,
        #"{"n":[0,-1,1.5,-2.25e-3,1e21,123456789012345678,0.1]}"#,
        #"{"s":"\u00e9\n\"q\" \ud83d\ude00","empty":"","nested":[[[]],{}]}"#,
        #"[true,false,null,{"a":{"b":{"c":[1]}}}]"#,
    ])
    func agreesWithJSONDecoder(text: String) throws {
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(parse(text) == expected)
    }

    @Test func randomValuesRoundTripThroughJSONEncoder() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let value = Self.randomValue(depth: 0, &random)
            let encoded = try JSONEncoder().encode(value)
            #expect((try? JSONParser.parse(encoded)) == value, "\(String(decoding: encoded, as: UTF8.self))")
        }
    }

    static func randomValue(depth: Int, _ random: inout SplitMix64) -> JSONValue {
        switch Int.random(in: depth < 4 ? 0..<7 : 0..<5, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / Double([1, 10, 1000, 3][Int.random(in: 0..<4, using: &random)]))
        case 3, 4:
            let characters: [Character] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "中", "😀", "\u{7F}"]
            return .string(String((0..<Int.random(in: 0..<12, using: &random)).map { _ in characters.randomElement(using: &random)! }))
        case 5:
            return .array((0..<Int.random(in: 0..<5, using: &random)).map { _ in randomValue(depth: depth + 1, &random) })
        default:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0..<5, using: &random) { members["k\(index)"] = randomValue(depth: depth + 1, &random) }
            return .object(members)
        }
    }
}
