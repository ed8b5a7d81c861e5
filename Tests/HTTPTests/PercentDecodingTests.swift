import Testing

@testable import HTTP

@Suite struct PercentDecodingTests {
    @Test func decodes() {
        #expect(PercentDecoding.decode("a%20b%2Fc") == "a b/c")
        #expect(PercentDecoding.decode("caf%C3%A9") == "café")
        #expect(PercentDecoding.decode("plain") == "plain")
    }

    @Test func refusesMalformedEscapesAndInvalidUTF8() {
        #expect(PercentDecoding.decode("%") == nil)
        #expect(PercentDecoding.decode("%4") == nil)
        #expect(PercentDecoding.decode("%zz") == nil)
        #expect(PercentDecoding.decode("%C3") == nil)
        #expect(PercentDecoding.decode("%FF") == nil)
    }
}
