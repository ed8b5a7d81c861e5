import Foundation

/// A systemd unit file read as its settings: `Key=Value` lines, comments and section headers
/// dropped, a key given several times keeping every value in order. Enough for the unit the
/// release ships (no line continuations, no quoting within `Environment=`).
struct SystemdUnit {
    private let settings: [(key: String, value: String)]

    init(path: String) throws {
        settings = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("#"), !text.hasPrefix(";"), !text.hasPrefix("["), let equals = text.firstIndex(of: "=") else { return nil }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }

    func values(_ key: String) -> [String] { settings.filter { $0.key == key }.map(\.value) }

    func value(_ key: String) -> String? { values(key).last }

    /// The variables of its `Environment=` lines.
    var environment: [String: String] {
        var variables: [String: String] = [:]
        for assignment in values("Environment").flatMap({ $0.split(separator: " ") }) {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        return variables
    }

    /// The folder the release is installed in, from `ExecStart=ROOT/bin/corkboard serve`.
    var installRoot: String? {
        guard let command = value("ExecStart")?.split(separator: " ").first, command.hasSuffix("/bin/corkboard") else { return nil }
        return String(command.dropLast("/bin/corkboard".count))
    }
}

/// A systemd `EnvironmentFile=`: `NAME=value` lines, `#` comments.
struct EnvironmentFile {
    let values: [String: String]

    init(path: String) throws {
        var values: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.hasPrefix("#"), let equals = text.firstIndex(of: "=") else { continue }
            values[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        self.values = values
    }
}
