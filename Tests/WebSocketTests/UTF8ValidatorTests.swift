import Testing

@testable import WebSocket

@Suite struct UTF8ValidatorTests {
    @Test(arguments: ["", "hello", "café", "κόσμε", "日本語", "🎉👍🏽", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}"])
    func validTextPassesWholeAndSplitAnywhere(text: String) {
        let bytes = Array(text.utf8)
        #expect(UTF8Validator.isValid(bytes))
        for cut in 0...bytes.count {
            var validator = UTF8Validator()
            let first = validator.validate(bytes[..<cut])
            let second = validator.validate(bytes[cut...])
            #expect(first && second)
            #expect(validator.isComplete)
        }
    }

    @Test(
        arguments: [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], // stray continuation, overlong 2-byte
            [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], // overlong 3-byte
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], // UTF-16 surrogates
            [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], // overlong 4-byte
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], // above U+10FFFF
            [0xC2, 0x41], [0xE2, 0x82, 0x41], // a lead byte followed by ASCII
        ] as [[UInt8]])
    func invalidSequencesFail(bytes: [UInt8]) {
        #expect(!UTF8Validator.isValid(bytes))
    }

    @Test func truncatedCharacterIsIncomplete() {
        var validator = UTF8Validator()
        let prefixValid = validator.validate([0x68, 0xE2, 0x82])
        #expect(prefixValid)
        #expect(!validator.isComplete)
        let restValid = validator.validate([0xAC])
        #expect(restValid)
        #expect(validator.isComplete)
    }

    @Test func failsAtTheFirstBadByteNotLater() {
        // The bad byte is in the first chunk: validation of that chunk already fails.
        var validator = UTF8Validator()
        let valid = validator.validate(Array("κόσμε".utf8) + [0xED, 0xA0])
        #expect(!valid)
    }
}
