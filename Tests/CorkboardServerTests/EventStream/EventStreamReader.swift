import Foundation
import TestSupport

/// One server-sent event as a reader dispatches it.
struct StreamEvent: Equatable, CustomStringConvertible {
    var id: String?
    var event: String
    var data: String

    var seq: Int? { id.flatMap(Int.init) }
    var description: String { "\(id.map { "#\($0) " } ?? "")\(event): \(data.prefix(200))" }
}

/// A client of `GET /api/boards/{id}/events` over a real socket: sends the request, reads
/// the head, then un-chunks the body and parses it as `text/event-stream` (the WHATWG
/// rules a browser's EventSource applies), keeping comments and `retry` apart.
final class EventStreamReader {
    let client: BlockingClient
    let status: Int
    private(set) var headers: [(name: String, value: String)] = []
    /// Comment lines (`: ping` → "ping") and `retry:` values, in arrival order.
    private(set) var comments: [String] = []
    private(set) var retry: [Int] = []
    /// The body ended with its last chunk (not a broken connection).
    private(set) var endedCleanly = false
    private var raw: [UInt8] = []
    private var text: [UInt8] = []
    private var pending: [StreamEvent] = []

    /// `headers` are extra request lines (`Last-Event-ID: 3`, `Origin: …`).
    init(port: UInt16, target: String, headers: [String] = [], method: String = "GET", timeout: Double = 10) throws {
        client = try BlockingClient(port: port, timeout: timeout)
        let lines = headers.map { $0 + "\r\n" }.joined()
        try client.send("\(method) \(target) HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\(lines)\r\n")
        // The head alone: a streamed body has no length for the response parser.
        var bytes: [UInt8] = []
        for _ in 0..<10_000 {
            if let end = Self.find([13, 10, 13, 10], in: bytes) {
                raw = Array(bytes[(end + 4)...])
                bytes = Array(bytes[..<(end + 4)])
                break
            }
            guard let chunk = try client.receiveSome() else { break }
            bytes += chunk
        }
        let headLines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = headLines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw HubTestFailure("no response head: \(String(decoding: bytes, as: UTF8.self))")
        }
        self.status = status
        for line in headLines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: CharacterSet.whitespaces)
            self.headers.append((name: String(line[..<colon]), value: value))
        }
    }

    /// A header of the response head (case-insensitive name).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The next event, or nil once the stream ended (cleanly or not: see `endedCleanly`).
    func next() throws -> StreamEvent? {
        for _ in 0..<100_000 {
            if !pending.isEmpty { return pending.removeFirst() }
            if endedCleanly { return nil }
            if unchunk() { continue }
            guard let chunk = try client.receiveSome() else { return nil }
            raw += chunk
        }
        throw HubTestFailure("no event within 100,000 reads")
    }

    /// The next event that is not `committed` by default, failing on anything else than `name`.
    func next(_ name: String) throws -> StreamEvent {
        guard let event = try next() else { throw HubTestFailure("the stream ended before a \(name) event") }
        guard event.event == name else { throw HubTestFailure("expected \(name), got \(event)") }
        return event
    }

    /// Reads until a comment arrives (a heartbeat), returning the events read meanwhile.
    func untilComment(_ comment: String) throws -> [StreamEvent] {
        var events: [StreamEvent] = []
        let seen = comments.count
        for _ in 0..<10_000 {
            if comments.dropFirst(seen).contains(comment) { return events }
            if !pending.isEmpty {
                events.append(pending.removeFirst())
                continue
            }
            if unchunk() { continue }
            guard let chunk = try client.receiveSome() else { throw HubTestFailure("the stream ended before \": \(comment)\"") }
            raw += chunk
        }
        throw HubTestFailure("no \": \(comment)\" within 10,000 reads")
    }

    /// Takes one whole chunk out of `raw` and parses the lines it completes; false when none is whole.
    private func unchunk() -> Bool {
        guard let lineEnd = Self.find([13, 10], in: raw) else { return false }
        let size = Int(String(decoding: raw[..<lineEnd], as: UTF8.self), radix: 16) ?? -1
        precondition(size >= 0, "a chunk size line that is not hex: \(String(decoding: raw[..<lineEnd], as: UTF8.self))")
        let start = lineEnd + 2
        guard raw.count >= start + size + 2 else { return false }
        if size == 0 {
            endedCleanly = true
            raw = []
            return true
        }
        text += raw[start..<(start + size)]
        raw.removeFirst(start + size + 2)
        parseLines()
        return true
    }

    private var building = StreamEvent(id: nil, event: "message", data: "")
    private var dataLines: [String] = []
    private var lastID: String?

    private func parseLines() {
        while let newline = text.firstIndex(of: 10) {
            let line = String(decoding: text[..<newline], as: UTF8.self)
            text.removeFirst(newline + 1)
            if line.isEmpty {
                if !dataLines.isEmpty {
                    building.data = dataLines.joined(separator: "\n")
                    building.id = lastID
                    pending.append(building)
                }
                building = StreamEvent(id: nil, event: "message", data: "")
                dataLines = []
            } else if line.hasPrefix(":") {
                comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
            } else {
                let (field, value) = Self.field(line)
                switch field {
                case "id": lastID = value
                case "event": building.event = value
                case "data": dataLines.append(value)
                case "retry": if let ms = Int(value) { retry.append(ms) }
                default: break
                }
            }
        }
    }

    private static func field(_ line: String) -> (String, String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.hasPrefix(" ") { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
