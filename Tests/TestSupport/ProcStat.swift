import Foundation

/// The fields of `/proc/PID/stat` from its third on (the state first): what follows
/// "pid (command)", split at whitespace. The command may itself hold spaces and parentheses,
/// so the split starts after the last ")". Nil once the process is gone.
public func procStatFields(_ pid: pid_t) -> [Substring]? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    return text[text.index(after: close)...].split(whereSeparator: \.isWhitespace)
}
