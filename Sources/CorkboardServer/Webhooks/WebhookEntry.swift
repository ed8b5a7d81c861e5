import CorkboardModel
import CorkboardStore
import Foundation

/// One endpoint as JSON, in the webhooks file and in `POST /api/webhooks`
/// (docs/integrations.md#webhooks): `{"id"?, "url", "secret"?, "boards"?}`, read strictly (a key
/// skipped could send a board's events where they were not meant to go).
enum WebhookEntry {
    static let shape = #"{"url":"https://…","secret":"whsec_…"?,"boards":["id",…]?}"#
    static let fileShape = #"{"webhooks":[{"id":"…","url":"https://…","secret":"whsec_…","boards":["id",…]?}]}"#

    struct Fields {
        var id: String?
        var url: WebhookURL
        var secret: WebhookSecret?
        /// Nil: every board.
        var boards: [String]?
    }

    /// The fields of `value`; `idAllowed` says whether it may (the file: must) name its id.
    static func fields(_ value: JSONValue, idAllowed: Bool) throws(WebhookEntryError) -> Fields {
        guard case .object(let object) = value else { throw WebhookEntryError("a webhook is an object: \(shape)") }
        let known: Set<String> = idAllowed ? ["id", "url", "secret", "boards"] : ["url", "secret", "boards"]
        if let unknown = object.keys.filter({ !known.contains($0) }).sorted().first {
            throw WebhookEntryError("unknown key \"\(unknown)\" (a webhook has \(known.sorted().joined(separator: ", ")))")
        }
        var id: String?
        if idAllowed {
            guard case .string(let given)? = object["id"], WebhookEndpoint.isValidFileID(given) else {
                throw WebhookEntryError("\"id\" is 1 to 64 of a-z, A-Z, 0-9, - and _, not starting with wh_")
            }
            id = given
        }
        guard case .string(let urlText)? = object["url"] else { throw WebhookEntryError("\"url\" is the receiver's http or https URL") }
        let url: WebhookURL
        do {
            url = try WebhookURL(urlText)
        } catch {
            throw WebhookEntryError(error.description)
        }
        var secret: WebhookSecret?
        switch object["secret"] {
        case nil: break
        case .string(let text)?:
            guard let parsed = WebhookSecret(text) else { throw WebhookEntryError("\"secret\" is \(WebhookSecret.shape)") }
            secret = parsed
        default: throw WebhookEntryError("\"secret\" is \(WebhookSecret.shape)")
        }
        var boards: [String]?
        switch object["boards"] {
        case nil: break
        case .array(let items)?:
            var ids: [String] = []
            for item in items {
                guard case .string(let board) = item, Limits.isValidID(board) else {
                    throw WebhookEntryError("\"boards\" is a list of board ids (leave it out for every board)")
                }
                if !ids.contains(board) { ids.append(board) }
            }
            guard !ids.isEmpty, ids.count <= 1000 else { throw WebhookEntryError("\"boards\" names 1 to 1000 boards (leave it out for every board)") }
            boards = ids
        default: throw WebhookEntryError("\"boards\" is a list of board ids (leave it out for every board)")
        }
        return Fields(id: id, url: url, secret: secret, boards: boards)
    }
}

struct WebhookEntryError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
