import Testing
import WebSocket

@testable import WebSocketDeflate

private func offer(_ header: String) -> WebSocketExtensionOffer {
    WebSocketExtensionOffer.parse([header])[0]
}

@Suite struct DeflateParametersTests {
    @Test func defaults() throws {
        let parameters = try DeflateParameters(offer("permessage-deflate"), isResponse: false)
        #expect(parameters == DeflateParameters())
        #expect(parameters.headerValue == "permessage-deflate")
    }

    @Test func everyParameter() throws {
        let parameters = try DeflateParameters(
            offer(
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=\"9\""),
            isResponse: false)
        #expect(parameters.serverNoContextTakeover && parameters.clientNoContextTakeover)
        #expect(parameters.serverMaxWindowBits == 10)
        #expect(parameters.clientMaxWindowBits == 9)
        #expect(
            parameters.headerValue
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9")
    }

    @Test func clientWindowWithoutValueIsAnOfferOnly() throws {
        #expect(try DeflateParameters(offer("permessage-deflate; client_max_window_bits"), isResponse: false).clientMaxWindowBits == 15)
        #expect(throws: DeflateParameters.Invalid.self) {
            try DeflateParameters(offer("permessage-deflate; client_max_window_bits"), isResponse: true)
        }
    }

    @Test(arguments: [
        "permessage-deflate; server_max_window_bits", "permessage-deflate; server_max_window_bits=7",
        "permessage-deflate; server_max_window_bits=16", "permessage-deflate; client_max_window_bits=0",
        "permessage-deflate; server_max_window_bits=010", "permessage-deflate; server_no_context_takeover=1",
        "permessage-deflate; server_no_context_takeover; server_no_context_takeover", "permessage-deflate; mystery",
        "x-webkit-deflate-frame",
    ])
    func invalidOffersAreDeclined(header: String) {
        #expect(throws: DeflateParameters.Invalid.self) { try DeflateParameters(offer(header), isResponse: false) }
    }
}

@Suite struct DeflateNegotiatorTests {
    private func accept(_ headers: [String], mode: DeflateConfiguration.Mode) -> String? {
        DeflateNegotiator(configuration: .init(mode: mode)).accept(offers: WebSocketExtensionOffer.parse(headers))?.responseHeader
    }

    @Test func speedKeepsContextAndFullWindows() {
        #expect(accept(["permessage-deflate; client_max_window_bits"], mode: .speed) == "permessage-deflate")
        #expect(accept(["permessage-deflate; server_max_window_bits=12"], mode: .speed) == "permessage-deflate; server_max_window_bits=12")
        #expect(accept(["permessage-deflate; server_no_context_takeover"], mode: .speed) == "permessage-deflate; server_no_context_takeover")
    }

    @Test func memoryDropsContextAndShrinksWindows() {
        #expect(
            accept(["permessage-deflate; client_max_window_bits"], mode: .memory)
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=10")
        // Without client_max_window_bits in the offer, the client's window may not be limited.
        #expect(
            accept(["permessage-deflate"], mode: .memory)
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10")
        // A limit below ours is kept.
        #expect(
            accept(["permessage-deflate; server_max_window_bits=9; client_max_window_bits=8"], mode: .memory)
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=9; client_max_window_bits=8")
    }

    @Test func firstAcceptableOfferOfSeveralWins() {
        let headers = ["permessage-deflate; mystery=1, permessage-deflate; server_max_window_bits=11", "permessage-deflate"]
        #expect(accept(headers, mode: .speed) == "permessage-deflate; server_max_window_bits=11")
    }

    @Test func nothingAcceptableOrOffIsDeclined() {
        #expect(accept(["permessage-deflate; bogus"], mode: .speed) == nil)
        #expect(accept(["x-webkit-deflate-frame"], mode: .memory) == nil)
        #expect(accept([], mode: .speed) == nil)
        #expect(accept(["permessage-deflate"], mode: .off) == nil)
    }

    @Test func clientConfirmsOnlyValidResponses() {
        let negotiator = DeflateNegotiator()
        #expect(throws: Never.self) { try negotiator.confirm(response: WebSocketExtensionOffer.parse(["permessage-deflate; server_no_context_takeover"])) }
        #expect(throws: DeflateParameters.Invalid.self) {
            try negotiator.confirm(response: WebSocketExtensionOffer.parse(["permessage-deflate; client_max_window_bits"]))
        }
        #expect(throws: DeflateParameters.Invalid.self) { try negotiator.confirm(response: WebSocketExtensionOffer.parse(["other-extension"])) }
        #expect(throws: DeflateParameters.Invalid.self) {
            try negotiator.confirm(response: WebSocketExtensionOffer.parse(["permessage-deflate, permessage-deflate"]))
        }
    }
}
