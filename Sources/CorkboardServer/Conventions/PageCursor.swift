import Foundation

/// The `cursor` of a list (docs/protocol.md#conventions): opaque to clients, which only send
/// back the `next` they were given. It is the sort key of the page's last entry, base64url
/// encoded, so that it survives a URL untouched and nobody builds one by hand.
enum PageCursor {
    static func encode(after key: String) -> String {
        Data(key.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The key a cursor was made from, or nil for a string this server never gave.
    static func decode(_ cursor: String) -> String? {
        guard !cursor.isEmpty, cursor.utf8.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let key = String(data: data, encoding: .utf8), encode(after: key) == cursor else {
            return nil
        }
        return key
    }

    private static let alphabet = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8))
}
