import Foundation

/// One place that turns messages into JSON text, so every peer encodes the same way.
enum JSONText {
    static func encode(_ value: some Encodable, with encoder: JSONEncoder) -> String {
        // Encoding these plain structs cannot fail; a failure would be a bug in this file.
        let data = try! encoder.encode(value)
        return String(decoding: data, as: UTF8.self)
    }

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// For the rare messages sent outside a room (errors before joining).
    static func encode(_ value: some Encodable) -> String {
        encode(value, with: makeEncoder())
    }
}
