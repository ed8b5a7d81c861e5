import Foundation
import TestSupport
import Testing

@testable import CorkboardServer

/// The webhooks file is read strictly, as the token and revocations files are: a mistake
/// refuses the whole file (exit 1 at start, the old endpoints kept on reload).
@Suite struct WebhooksFileTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    static func read(_ text: String) throws(TokenFileError) -> [WebhookEndpoint] {
        let folder = try? TemporaryDirectory("corkboard-webhooks-file")
        let path = (try? folder?.write("webhooks.json", text)) ?? "/nonexistent"
        return try WebhooksFile.read(path)
    }

    @Test func endpointsAreReadWithTheirBoards() throws {
        let endpoints = try Self.read(
            #"{"webhooks":[{"id":"crm","url":"https://crm.example/in","secret":"\#(Self.secret)"},"#
                + #"{"id":"audit_2","url":"http://127.0.0.1:9/x","secret":"\#(Self.secret)","boards":["a","b","a"]}]}"#)
        #expect(endpoints.map(\.id) == ["crm", "audit_2"])
        #expect(endpoints[0].boards == nil && endpoints[0].receives(board: "any"))
        #expect(endpoints[1].boards == ["a", "b"] && !endpoints[1].receives(board: "c"))
        #expect(endpoints.allSatisfy { $0.origin == .file })
    }

    @Test(arguments: [
        (#"{"webhooks":[{"id":"a","url":"https://x.example/","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw","board":["a"]}]}"#, "unknown key \"board\""),
        (#"{"webhooks":[{"id":"a","url":"https://x.example/"}]}"#, "\"secret\" is required"),
        (#"{"webhooks":[{"id":"wh_1","url":"https://x.example/","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}]}"#, "not starting with wh_"),
        (#"{"webhooks":[{"id":"a","url":"ftp://x.example/","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}]}"#, "http or https"),
        (#"{"webhooks":[{"id":"a","url":"https://x.example/","secret":"short"}]}"#, "whsec_ followed by"),
        (#"{"webhooks":[{"id":"a","url":"https://x.example/","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw","boards":[]}]}"#, "1 to 1000 boards"),
        (
            #"{"webhooks":[{"id":"a","url":"https://x.example/","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},{"id":"a","url":"https://y.example/","secret":"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}]}"#,
            "given twice"
        ),
        (#"{"webhooks":[],"extra":1}"#, "and nothing else"),
        (#"{"webhooks":[{"id":"a","id":"b"}]}"#, "given twice in one object"),
        ("not json", "not JSON"),
    ])
    func mistakesRefuseTheFile(text: String, reason: String) {
        #expect {
            try Self.read(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
