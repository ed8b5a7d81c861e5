/// Parses one complete request head (request line and header fields, up to the blank line).
struct HTTPHeadParser {
    let limits: HTTPRequestParser.Limits

    func parse(_ head: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequest {
        var lines = try Self.splitLines(head)
        guard !lines.isEmpty else { throw .malformedRequestLine }
        var request = try parseRequestLine(lines.removeFirst())
        if lines.count > limits.maxHeaderCount { throw .tooManyHeaders }
        for line in lines where !line.isEmpty {
            let (name, value) = try Self.parseField(line)
            request.headers.add(name, value)
        }
        if request.version == .http1_1 && request.headers.values("Host").count != 1 { throw .missingHost }
        return request
    }

    /// Lines end in CRLF or a bare LF; a CR anywhere else is refused (it hides header injection).
    static func splitLines(_ head: ArraySlice<UInt8>) throws(HTTPParseError) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = head.startIndex
        for index in head.indices where head[index] == .lf {
            var line = head[lineStart..<index]
            if line.last == .cr { line = line.dropLast() }
            if line.contains(.cr) { throw .malformedHeader }
            lines.append(line)
            lineStart = index + 1
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    private func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequest {
        // The same bound the parser applies while the line is arriving.
        if line.count > limits.maxRequestLineLength { throw .uriTooLong }
        let parts = line.split(separator: .space, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(\.isTokenCharacter) else {
            throw line.count > limits.maxURILength ? .uriTooLong : .malformedRequestLine
        }
        let target = parts[1]
        if target.count > limits.maxURILength { throw .uriTooLong }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .malformedRequestLine }
        let version = try parseVersion(parts[2])
        let method = HTTPMethod(rawValue: String(decoding: parts[0], as: UTF8.self))
        return HTTPRequest(method: method, target: try originForm(String(decoding: target, as: UTF8.self)), version: version)
    }

    private func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        let text = Array(bytes)
        guard text.count == 8, text.starts(with: Array("HTTP/".utf8)), text[6] == UInt8(ascii: "."),
            text[5] >= .zero && text[5] <= .nine, text[7] >= .zero && text[7] <= .nine
        else {
            throw .malformedRequestLine
        }
        let version = HTTPVersion(major: Int(text[5] - .zero), minor: Int(text[7] - .zero))
        guard version == .http1_1 || version == .http1_0 else { throw .unsupportedVersion }
        return version
    }

    /// Absolute-form targets (`http://host/path`) must be accepted (RFC 9112 §3.2.2); we keep the path.
    private func originForm(_ target: String) throws(HTTPParseError) -> String {
        if target.first == "/" || target == "*" { return target }
        let lower = target.lowercased()
        let schemeLength = lower.hasPrefix("http://") ? 7 : lower.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { throw .malformedRequestLine }
        let afterAuthority = target.dropFirst(schemeLength)
        guard let pathStart = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = String(target[pathStart...])
        return rest.first == "?" ? "/" + rest : rest
    }

    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String) {
        // A line starting with whitespace is an obsolete continuation (obs-fold): refused.
        guard let colon = line.firstIndex(of: .colon), line.first != .space, line.first != .tab else { throw .malformedHeader }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(\.isTokenCharacter) else { throw .malformedHeader }
        let value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == .tab || ($0 >= 0x20 && $0 != 0x7F) }) else { throw .malformedHeader }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self).trimmingOWS())
    }
}
