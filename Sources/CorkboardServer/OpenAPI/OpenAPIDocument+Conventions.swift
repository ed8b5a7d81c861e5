import CorkboardModel
import CorkboardWire
import Foundation

/// What every operation of the document has by the API's conventions (docs/protocol.md#conventions),
/// added here once rather than written into each path of `openapi.json` (so a path added there
/// has them too): a 400 (an unknown or repeated query parameter is refused on every route), a 413 where
/// a body is taken, the `RateLimit-Policy` and `RateLimit` headers beside `Retry-After` on a 429,
/// and the `limit` and `cursor` parameters lists refer to.
extension OpenAPIDocument {
    /// `document` with the conventions; nil if it has no `paths` or `components` object or
    /// cannot be encoded.
    static func withConventions(_ document: [String: JSONValue]) -> [UInt8]? {
        var document = document
        guard case .object(var paths)? = document["paths"], case .object(var components)? = document["components"] else {
            return nil
        }
        for (path, item) in paths { paths[path] = withConventions(pathItem: item) }
        document["paths"] = .object(paths)
        components["parameters"] = merged(components["parameters"], listParameters)
        components["headers"] = merged(components["headers"], rateLimitHeaders)
        document["components"] = .object(components)
        return try? Array(WireFormat.encode(JSONValue.object(document)))
    }

    private static let methods: Set<String> = ["get", "put", "post", "delete", "patch"]

    private static func withConventions(pathItem: JSONValue) -> JSONValue {
        guard case .object(var item) = pathItem else { return pathItem }
        for (method, operation) in item {
            guard case .object(var fields) = operation, case .object(var responses)? = fields["responses"] else { continue }
            if methods.contains(method) {
                if responses["400"] == nil { responses["400"] = reference("#/components/responses/BadRequest") }
                if fields["requestBody"] != nil, responses["413"] == nil { responses["413"] = reference("#/components/responses/TooLarge") }
                if case .object(var tooMany)? = responses["429"], tooMany["$ref"] == nil {
                    tooMany["headers"] = merged(tooMany["headers"], rateLimitHeaderReferences)
                    responses["429"] = .object(tooMany)
                }
            } else if method == "head", responses["400"] == nil {
                responses["400"] = .object(["description": "As GET."])
            }
            fields["responses"] = .object(responses)
            item[method] = .object(fields)
        }
        return .object(item)
    }

    private static func reference(_ target: String) -> JSONValue { .object(["$ref": .string(target)]) }

    private static func merged(_ existing: JSONValue?, _ added: [String: JSONValue]) -> JSONValue {
        guard case .object(let fields)? = existing else { return .object(added) }
        return .object(fields.merging(added) { kept, _ in kept })
    }

    /// `limit` and `cursor` of every list.
    private static let listParameters: [String: JSONValue] = [
        "Limit": .object([
            "name": "limit", "in": "query", "description": "entries in the page",
            "schema": .object([
                "type": "integer", "minimum": .number(1), "maximum": .number(Double(ListPage.maxLimit)),
                "default": .number(Double(ListPage.defaultLimit)),
            ]),
        ]),
        "Cursor": .object([
            "name": "cursor", "in": "query", "description": "where the page starts: the next of the page before, as given",
            "schema": .object(["type": "string", "minLength": .number(1)]),
        ]),
    ]

    private static let rateLimitHeaders: [String: JSONValue] = [
        "RateLimitPolicy": .object([
            "description":
                #"The rates the caller is held to (draft-ietf-httpapi-ratelimit-headers): "ops";q=2000;w=1, "op-bytes";q=4194304;w=4;qu="content-bytes""#,
            "required": .bool(true), "schema": .object(["type": "string"]),
        ]),
        "RateLimit": .object([
            "description": #"Where the caller stands on each: "ops";r=0;t=1 (r units left, t seconds until the quota is full again)"#,
            "required": .bool(true), "schema": .object(["type": "string"]),
        ]),
    ]

    private static let rateLimitHeaderReferences: [String: JSONValue] = [
        "RateLimit-Policy": reference("#/components/headers/RateLimitPolicy"), "RateLimit": reference("#/components/headers/RateLimit"),
    ]
}
