// libFuzzer target: permessage-deflate (PerMessageDeflate over zlib): the inflater of
// received messages with its size cap, and the compressor/inflater pair.
//
// Input: one choice byte, one limit byte, then data.
//   choice bit 0: data is compressed bytes from a peer (inflate them) when clear; plain
//                 messages to compress and inflate again when set
//   choice bits 1-3: window bits 8 + n (both directions)
//   choice bit 4: no context takeover
//   choice bits 5-7: seed of how the data is cut into frame pieces
//   limit byte: the message cap, (n + 1) * 64 bytes
//
// Invariants beyond "does not crash":
// - inflating never returns more than the cap, and a message inflated in pieces gives the
//   same bytes (or the same failure) as inflated whole;
// - after a failure the inflater still inflates a fresh message correctly;
// - whatever is compressed inflates back to exactly the same message, message after message
//   (with and without context takeover), for every window size.
import WebSocket
import WebSocketDeflate

func parameters(_ choice: UInt8) -> DeflateParameters {
    var parameters = DeflateParameters()
    let bits = 8 + Int(choice >> 1 & 7)
    parameters.serverMaxWindowBits = bits
    parameters.clientMaxWindowBits = bits
    parameters.serverNoContextTakeover = choice & 0x10 != 0
    parameters.clientNoContextTakeover = choice & 0x10 != 0
    return parameters
}

func receiver(_ choice: UInt8) -> PerMessageDeflate {
    PerMessageDeflate(parameters: parameters(choice), configuration: DeflateConfiguration(mode: .speed, minimumSize: 0), isServer: true)
}

func sender(_ choice: UInt8) -> PerMessageDeflate {
    PerMessageDeflate(parameters: parameters(choice), configuration: DeflateConfiguration(mode: .speed, minimumSize: 0), isServer: false)
}

/// Inflates one message given as pieces, as the assembler does: each piece capped by what
/// is left of the limit.
func inflate(_ pieces: [ArraySlice<UInt8>], with inflater: PerMessageDeflate, limit: Int) -> Result<[UInt8], WebSocketError> {
    var output: [UInt8] = []
    let pieces = pieces.isEmpty ? [[][...]] : pieces
    for (index, piece) in pieces.enumerated() {
        do {
            let left = limit - output.count
            let produced = try inflater.decompress(Array(piece), isFinal: index == pieces.count - 1, limit: left)
            check(produced.count <= left, "inflated \(produced.count) bytes with \(left) left of the cap")
            output += produced
        } catch {
            return .failure(error)
        }
    }
    return .success(output)
}

/// A known message, to check an inflater is usable after whatever came before.
let probe = Array("probe: the inflater still works after that message".utf8)

func fuzzInflate(_ data: [UInt8], choice: UInt8, limit: Int) {
    let whole = inflate([data[...]], with: receiver(choice), limit: limit)
    let inflater = receiver(choice)
    let cut = inflate(pieces(of: data, seed: choice >> 5, maximum: 1 + Int(choice >> 5) * 9), with: inflater, limit: limit)
    switch (whole, cut) {
    case (.success(let a), .success(let b)): check(a == b, "whole and in pieces inflate differently")
    case (.failure(.messageTooLarge), .failure(.messageTooLarge)), (.failure(.compression), .failure(.compression)): break
    default: check(false, "whole: \(whole), in pieces: \(cut)")
    }
    // A fresh sender's next message must inflate whenever the receiver starts it afresh:
    // after a failure (the inflater is reset) or without context takeover. With context
    // takeover after a success it need not: the fuzzed message may have ended mid-block.
    let noContextTakeover = choice & 0x10 != 0
    if noContextTakeover || (try? cut.get()) == nil {
        guard let compressed = sender(choice).compress(probe) else { return }
        let next = inflate([compressed[...]], with: inflater, limit: limit)
        if case .success(let bytes) = next {
            check(bytes == probe, "probe inflated wrong after a message")
        } else if limit >= probe.count {
            check(false, "probe failed after a message: \(next)")
        }
    }
}

func fuzzRoundTrip(_ data: [UInt8], choice: UInt8) {
    let compressor = sender(choice), inflater = receiver(choice)
    // Messages separated by 0xFF bytes, so one input exercises a stream of them.
    for message in data.split(separator: 0xFF, omittingEmptySubsequences: false) {
        let message = Array(message)
        guard let compressed = compressor.compress(message) else { continue }
        let back = inflate(pieces(of: compressed, seed: choice >> 5, maximum: 1 + Int(choice >> 5) * 9), with: inflater, limit: 1 << 20)
        check((try? back.get()) == message, "message of \(message.count) bytes compressed to \(compressed.count) inflated as \(back)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.takeChoice()
    let limit = (Int(input.takeChoice()) + 1) * 64
    if choice & 1 == 0 {
        fuzzInflate(input.bytes, choice: choice, limit: limit)
    } else {
        fuzzRoundTrip(input.bytes, choice: choice)
    }
    return 0
}
