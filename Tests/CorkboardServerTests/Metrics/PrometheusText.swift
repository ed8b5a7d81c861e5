import Foundation

/// A strict reader of the Prometheus text exposition format (version 0.0.4), enough to
/// check that `/metrics` parses and to read its samples: `# HELP` and `# TYPE` comments,
/// then `name{label="value",…} number` lines.
struct PrometheusText {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Samples by their series as written: `name` or `name{label="value"}`.
    private(set) var samples: [String: Double] = [:]
    /// Declared types by metric name.
    private(set) var types: [String: String] = [:]
    /// HELP texts by metric name.
    private(set) var helps: [String: String] = [:]

    init(_ text: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            if line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 3)
                guard words.count >= 3, words[0] == "#" else { throw Failure(description: "line \(number + 1): bad comment: \(line)") }
                if words[1] == "TYPE" {
                    guard words.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3]) else {
                        throw Failure(description: "line \(number + 1): bad TYPE: \(line)")
                    }
                    types[String(words[2])] = String(words[3])
                }
                if words[1] == "HELP" { helps[String(words[2])] = words.count == 4 ? String(words[3]) : "" }
                continue
            }
            guard let space = line.lastIndex(of: " ") else { throw Failure(description: "line \(number + 1): no value: \(line)") }
            let series = String(line[..<space])
            let valueText = line[line.index(after: space)...]
            guard let value = Double(valueText) ?? (valueText == "+Inf" ? .infinity : nil) else {
                throw Failure(description: "line \(number + 1): bad value: \(line)")
            }
            guard Self.isValidSeries(series) else { throw Failure(description: "line \(number + 1): bad series: \(series)") }
            samples[series] = value
        }
    }

    /// The value of a series, 0 when it was not written (a counter nobody touched).
    subscript(_ series: String) -> Double { samples[series] ?? 0 }

    private static func isValidSeries(_ series: String) -> Bool {
        let name = series.prefix { $0 != "{" }
        guard let first = name.first, first.isLetter || first == "_" || first == ":",
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") })
        else { return false }
        let rest = series.dropFirst(name.count)
        guard !rest.isEmpty else { return true }
        guard rest.hasPrefix("{"), rest.hasSuffix("}") else { return false }
        // label="value" pairs; values here never hold commas or quotes.
        return rest.dropFirst().dropLast().split(separator: ",").allSatisfy { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && !parts[0].isEmpty && parts[1].hasPrefix("\"") && parts[1].hasSuffix("\"") && parts[1].count >= 2
        }
    }
}
