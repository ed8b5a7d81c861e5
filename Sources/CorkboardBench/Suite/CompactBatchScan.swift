/// What a presence probe needs of a `drags.compact` batch (docs/protocol.md#compact-drags),
/// read from its bytes: each change's client and, for a start, the dragger's name or, for a
/// placeholder move, its index.
///
/// The probes used to decode every batch with `JSONDecoder`: 50 probes, 20 batches a second of
/// 2 KB each, which with the watchers' reads made the bench, not the server, the slower side
/// of the two cores they share. A change is told apart as the protocol says, by its length and
/// its second element; anything of another shape ends the scan (the batch is not timed).
enum CompactBatchScan {
    enum Change: Equatable {
        case started(client: String, name: String)
        case moved(client: String, index: Int)
        /// A clear, or a drag of columns (the probes time items only).
        case other
    }

    /// The batch's changes in order; nil when `text` is not a compact batch of this shape.
    static func changes(in text: String) -> [Change]? {
        var text = text
        return text.withUTF8 { changes(in: $0) }
    }

    static func changes(in bytes: UnsafeBufferPointer<UInt8>) -> [Change]? {
        let prefix = #"{"changes":["#.utf8
        guard bytes.count > prefix.count, bytes.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        var changes: [Change] = []
        var index = prefix.count
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "]"):
                return changes
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "["):
                guard let (elements, end) = elements(ofArrayAt: index, in: bytes) else { return nil }
                changes.append(change(elements, in: bytes))
                index = end
            default:
                return nil
            }
        }
        return nil
    }

    private static func change(_ elements: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> Change {
        guard elements.count == 4, let client = string(elements[0], in: bytes) else { return .other }
        if let name = string(elements[1], in: bytes) { return .started(client: client, name: name) }
        guard let index = WireScan.integerValue(at: elements[1].lowerBound, in: bytes) else { return .other }
        return .moved(client: client, index: index)
    }

    /// The text of a string element without escapes (bench ids and names have none); nil for
    /// any other element.
    private static func string(_ element: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard element.count >= 2, bytes[element.lowerBound] == UInt8(ascii: "\""),
            let inside = WireScan.stringValue(at: element.lowerBound, in: bytes),
            inside.count == element.count - 2
        else { return nil }
        return String(decoding: inside, as: UTF8.self)
    }

    /// The byte ranges of the elements of the array opening at `start`, and where the array
    /// ends (just past its `]`); nil when it does not end.
    static func elements(ofArrayAt start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> ([Range<Int>], Int)? {
        var elements: [Range<Int>] = []
        var depth = 0
        var elementStart = start + 1
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: ","):
                if depth == 1 {
                    elements.append(elementStart..<index)
                    elementStart = index + 1
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    if index > start + 1 { elements.append(elementStart..<index) }
                    return (elements, index + 1)
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
