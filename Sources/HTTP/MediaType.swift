/// Content types for the files a web client is made of.
enum MediaType {
    static func forExtension(_ fileExtension: String) -> (type: String, compressible: Bool) {
        switch fileExtension.lowercased() {
        case "html", "htm": return ("text/html; charset=utf-8", true)
        case "css": return ("text/css; charset=utf-8", true)
        case "js", "mjs": return ("text/javascript; charset=utf-8", true)
        case "json", "map": return ("application/json", true)
        case "webmanifest": return ("application/manifest+json", true)
        case "txt", "md": return ("text/plain; charset=utf-8", true)
        case "svg": return ("image/svg+xml", true)
        case "xml": return ("application/xml", true)
        case "wasm": return ("application/wasm", true)
        case "png": return ("image/png", false)
        case "jpg", "jpeg": return ("image/jpeg", false)
        case "gif": return ("image/gif", false)
        case "webp": return ("image/webp", false)
        case "avif": return ("image/avif", false)
        case "ico": return ("image/x-icon", true)
        case "woff": return ("font/woff", false)
        case "woff2": return ("font/woff2", false)
        default: return ("application/octet-stream", false)
        }
    }
}
