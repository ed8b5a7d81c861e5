import Testing

@testable import HTTP

/// What the parser produced for a byte stream, in a form tests compare.
enum Parsed: Equatable {
    case request(method: String, target: String, headers: [String], body: String)
    case continueExpected
    case failed(HTTPParseError)
}

/// Feeds `chunks` one after the other, draining events after each.
func parse(_ chunks: [[UInt8]], limits: HTTPRequestParser.Limits = .init()) -> [Parsed] {
    var parser = HTTPRequestParser(limits: limits)
    var results: [Parsed] = []
    for chunk in chunks {
        parser.append(chunk)
        while true {
            do {
                guard let event = try parser.next() else { break }
                switch event {
                case .request(let r):
                    results.append(
                        .request(
                            method: r.method.rawValue, target: r.target,
                            headers: r.headers.map { "\($0.name): \($0.value)" },
                            body: String(decoding: r.body, as: UTF8.self)))
                case .continueExpected:
                    results.append(.continueExpected)
                }
            } catch {
                results.append(.failed(error))
                return results
            }
        }
    }
    return results
}

/// Parses `text` whole, split in two at every position, and byte by byte; all must agree.
func parseEverySplit(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> [Parsed] {
    let bytes = Array(text.utf8)
    let whole = parse([bytes], limits: limits)
    for cut in 0...bytes.count {
        let split = parse([Array(bytes[..<cut]), Array(bytes[cut...])], limits: limits)
        #expect(split.filter { $0 != .continueExpected } == whole.filter { $0 != .continueExpected }, "split at \(cut)")
    }
    #expect(parse(bytes.map { [$0] }, limits: limits).filter { $0 != .continueExpected } == whole.filter { $0 != .continueExpected })
    return whole
}
