import CorkboardModel
import Foundation
import Sockets

/// The board every scenario of the comparison runs on: collection `a` holds the movers' items
/// `x0…` (one per slot of a `MoveDriver`), collection `b` holds 100 items `y0…` for the
/// presence scenario's placeholders. Created with `POST /api/boards`, which every peer serves.
enum SuiteBoard {
    static func create(id: String, movers: Int, target: BenchTarget, loop: IOLoop) throws {
        let board = Board(
            id: id, title: "Bench",
            collections: [
                BoardCollection(id: "a", title: "A", items: (0..<movers).map { Item(id: "x\($0)", label: "Mover \($0)") }),
                BoardCollection(id: "b", title: "B", items: (0..<100).map { Item(id: "y\($0)", label: "Card \($0)") }),
            ])
        try HubBenchmark.create(board, target: target, loop: loop)
    }

    /// A board id no earlier run used (servers keep boards for their lifetime).
    static func freshID(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}

/// Seconds since `start` (uptime nanoseconds).
func secondsSince(_ start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
