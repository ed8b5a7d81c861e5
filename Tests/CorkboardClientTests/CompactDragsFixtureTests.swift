import CorkboardModel
import CorkboardWire
import Foundation
import TestSupport
import Testing

/// The shared compact presence fixture (Tests/Fixtures/presence/compact-drags.json, which the
/// SDK's and the Python client's tests read too): the Swift client decodes each `drags.compact`
/// into exactly the changes of the `drags` beside it, and the server writes those changes back
/// into exactly the compact bytes, and the long ones into today's bytes.
struct CompactDragsFixtureTests {
    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        let compact: String
        let full: String
        var testDescription: String { name }
    }

    struct Fixture: Decodable {
        let cases: [Case]
    }

    static let cases: [Case] = {
        let path = PythonTools.packageRoot + "/Tests/Fixtures/presence/compact-drags.json"
        guard let data = FileManager.default.contents(atPath: path), let fixture = try? JSONDecoder().decode(Fixture.self, from: data)
        else { return [] }
        return fixture.cases
    }()

    @Test func theFixtureIsThere() {
        #expect(Self.cases.count >= 3)
    }

    @Test(arguments: cases) func compactDecodesIntoTheLongFormAndEncodesBack(_ fixture: Case) throws {
        let compact = try WireFormat.decodeServerMessage(Data(fixture.compact.utf8))
        let full = try WireFormat.decodeServerMessage(Data(fixture.full.utf8))
        #expect(compact == full)
        let batch: [DragChange]? = if case .drags(let changes) = full { changes } else { nil }
        let changes = try #require(batch, "the full form is not a drags message: \(full)")
        #expect(CompactDrags.text(changes) == fixture.compact)
        #expect(try WireFormat.text(.drags(changes)) == fixture.full)
    }

    @Test(arguments: [
        #"{"changes":[["c1"]],"type":"drags.compact"}"#,
        #"{"changes":[["c1","dropped"]],"type":"drags.compact"}"#,
        #"{"changes":[["c1",1.5,null,"done"]],"type":"drags.compact"}"#,
        #"{"changes":[["c1",1,7,"done"]],"type":"drags.compact"}"#,
        #"{"changes":[["c1","Ada",["i1"],[1,null]]],"type":"drags.compact"}"#,
        #"{"changes":[["c1","Ada",[1],null]],"type":"drags.compact"}"#,
        #"{"changes":[[7,"drop"]],"type":"drags.compact"}"#,
        #"{"changes":{},"type":"drags.compact"}"#,
    ])
    func aMalformedCompactBatchIsRefusedNotMisread(_ text: String) {
        #expect(throws: DecodingError.self) { try WireFormat.decodeServerMessage(Data(text.utf8)) }
    }
}
