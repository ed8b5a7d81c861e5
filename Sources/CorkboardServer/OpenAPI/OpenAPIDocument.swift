import CorkboardModel
import CorkboardWire
import Foundation

/// The OpenAPI 3.1 description of the HTTP API, served at `GET /api/openapi.json`: every
/// `/api` route with its parameters, bodies, responses and the error body.
/// docs/protocol.md#8-http-api stays the normative text; the tests hold the two together
/// (`OpenAPITests` compares the document's paths with the router's served routes, schemathesis
/// drives a real server from it and checks every answer against it).
///
/// The document is `openapi.json` beside this file: plain JSON that editors and linters read,
/// embedded in the binary (SwiftPM's `embedInCode`), not installed beside it, since `corkboard`
/// is installed as one file. What is served is that file with `info.version` set to the
/// server's version (the file says `0.0.0`) and the API's conventions added to every operation
/// (`OpenAPIDocument+Conventions.swift`).
enum OpenAPIDocument {
    static let bytes = served(PackageResources.openapi_json)

    /// The file as served; the file itself if it cannot be read (OpenAPITests reads what is
    /// served, and fails then).
    static func served(_ file: [UInt8]) -> [UInt8] {
        guard case .object(var document)? = try? StrictJSON.parse(Data(file)),
            case .object(var info)? = document["info"]
        else { return file }
        info["version"] = .string(CorkboardVersion.current)
        document["info"] = .object(info)
        return withConventions(document) ?? file
    }
}
