import CorkboardModel
import Foundation
import Testing

/// The shared fixtures of `Tests/Fixtures/replica/*.json`: a board, committed events and the
/// board after them (or events that must be refused). The browser SDK's unit tests
/// (`Tests/sdk/replica.test.js`) load the same files, so "apply a committed event" means the
/// same in the model, the Swift client and the SDK.
public struct ReplicaFixture: Sendable, Decodable, CustomTestStringConvertible {
    public let name: String
    public let description: String
    public let before: Board
    /// Applied in order to `before`, they give `after`.
    public let events: [CommittedEvent]?
    public let after: Board?
    /// Each, applied alone to `before` (as seq 1), does not fit and is refused.
    public let refused: [CommittedEvent]?

    public var testDescription: String { name }

    public static let folder = PythonTools.packageRoot + "/Tests/Fixtures/replica"

    /// Every fixture, by name. A file that does not decode stops the suite, naming it.
    public static func all() throws -> [ReplicaFixture] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            do {
                return try JSONDecoder().decode(ReplicaFixture.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            } catch {
                throw PythonTools.Failure("Tests/Fixtures/replica/\(name) does not decode: \(error)")
            }
        }
    }
}
