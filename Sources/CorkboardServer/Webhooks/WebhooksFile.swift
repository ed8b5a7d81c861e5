import CorkboardModel
import CorkboardWire
import Foundation

/// The webhooks file (`--webhooks`, docs/integrations.md#webhooks):
/// `{"webhooks":[{"id":"crm","url":"https://…","secret":"whsec_…","boards":["id"]?}]}`, read at
/// start and again on SIGHUP, for an operator who keeps endpoints with the rest of the
/// deployment. Its endpoints are listed by the API but changed only here.
enum WebhooksFile {
    static func read(_ path: String) throws(TokenFileError) -> [WebhookEndpoint] {
        guard let data = FileManager.default.contents(atPath: path) else { throw TokenFileError("cannot read the webhooks file \(path)") }
        let document: JSONValue
        do {
            document = try TokenFileReading.strictDocument(data, "a webhooks file", shape: WebhookEntry.fileShape)
        } catch {
            throw TokenFileError("\(path): \(error.description)")
        }
        guard case .object(let top) = document, case .array(let entries)? = top["webhooks"], top.count == 1 else {
            throw TokenFileError("\(path): a webhooks file is \(WebhookEntry.fileShape) and nothing else")
        }
        var endpoints: [WebhookEndpoint] = []
        for (index, entry) in entries.enumerated() {
            do throws(WebhookEntryError) {
                let fields = try WebhookEntry.fields(entry, idAllowed: true)
                // A file's endpoint names its secret: one made up here would differ at every start.
                guard let secret = fields.secret else { throw WebhookEntryError("\"secret\" is required in the file: \(WebhookSecret.shape)") }
                guard let id = fields.id, !endpoints.contains(where: { $0.id == id }) else {
                    throw WebhookEntryError("the id \"\(fields.id ?? "")\" is given twice")
                }
                endpoints.append(
                    WebhookEndpoint(id: id, url: fields.url, secret: secret, boards: fields.boards.map(Set.init), origin: .file, createdAt: nil))
            } catch {
                throw TokenFileError("\(path): webhooks[\(index)]: \(error.description)")
            }
        }
        return endpoints
    }
}
