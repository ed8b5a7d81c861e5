import Glibc
import Synchronization

/// Serves the files under one root folder: content types, ETag and `If-None-Match`, HEAD, gzip
/// when the client accepts it, `index.html` for folders. No request can reach outside the root:
/// `..` segments, encoded slashes and NULs are refused, and the real path (symlinks resolved)
/// must still lie under the root's real path. Anything refused or absent is a plain 404, so a
/// probe learns nothing about what exists outside.
public final class StaticFiles: Sendable {
    public let root: String
    private let cache = Mutex<[String: CachedFile]>([:])
    /// Files up to this size stay in memory (with their gzip form); larger ones are read piece
    /// by piece as the client takes them (not compressed), so a client that stops reading holds
    /// a few pieces, not the file.
    private let maxCachedFileSize = 1024 * 1024
    /// Larger files are not served: the web client is small, and this server is not a file host.
    private let maxFileSize = 64 * 1024 * 1024

    public struct MissingRoot: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "web root '\(path)' does not exist or is not a folder" }
    }

    public init(root: String) throws {
        guard let real = realpath(root, nil) else { throw MissingRoot(path: root) }
        defer { free(real) }
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { throw MissingRoot(path: root) }
        self.root = String(cString: real)
    }

    public func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        responder.respond(response(to: request))
    }

    public func response(to request: HTTPRequest) -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else {
            var response = HTTPResponse.error(.methodNotAllowed, "\(request.method) is not allowed here")
            response.headers.set("Allow", "GET, HEAD")
            return response
        }
        guard let path = resolve(request.path) else { return .error(.notFound, "not found") }
        if let large = largeFileResponse(path, request) { return large }
        guard let file = load(path) else { return .error(.notFound, "not found") }
        let gzip = file.gzipped != nil && Self.acceptsGzip(request.headers)
        var headers: HTTPHeaders = [
            "Content-Type": file.contentType,
            "ETag": gzip ? file.gzipETag : file.etag,
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
        ]
        if file.gzipped != nil { headers.add("Vary", "Accept-Encoding") }
        if Self.matches(request.headers.tokens("If-None-Match"), file) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        if gzip { headers.add("Content-Encoding", "gzip") }
        return HTTPResponse(status: .ok, headers: headers, body: gzip ? file.gzipped! : file.bytes)
    }

    /// The response for a file too large to cache, streamed; nil for any other file. Its ETag
    /// comes from the file's identity (inode, size, modification time), not its bytes, which
    /// would have to be read whole first.
    private func largeFileResponse(_ path: String, _ request: HTTPRequest) -> HTTPResponse? {
        var info = stat()
        guard stat(path, &info) == 0, Int(info.st_size) > maxCachedFileSize else { return nil }
        guard Int(info.st_size) <= maxFileSize else { return .error(.notFound, "not found") }
        let version = FileVersion(info)
        let etag =
            "\"f\(String(version.inode, radix: 16))-\(String(version.size, radix: 16))-"
            + "\(String(version.modified.tv_sec, radix: 16)).\(String(version.modified.tv_nsec, radix: 16))\""
        let fileExtension = Self.fileExtension(path)
        let headers: HTTPHeaders = [
            "Content-Type": MediaType.forExtension(fileExtension).type,
            "ETag": etag,
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
        ]
        let tags = request.headers.tokens("If-None-Match").map { $0.hasPrefix("w/") ? String($0.dropFirst(2)) : $0 }
        if tags.contains(where: { $0 == "*" || $0 == etag.lowercased() }) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        let stream = HTTPBodyStream(length: version.size) {
            let file = FilePieces(path: path)
            return { file.next() }
        }
        return HTTPResponse(status: .ok, headers: headers, stream: stream)
    }

    /// Maps a request path (still percent-encoded) to a real file path under the root, or nil.
    public func resolve(_ rawPath: String) -> String? {
        let lowered = rawPath.lowercased()
        // Encoded separators and NULs have no business in a file path.
        guard rawPath.first == "/", !lowered.contains("%2f"), !lowered.contains("%5c"), !lowered.contains("%00"),
            let decoded = PercentDecoding.decode(rawPath),
            !decoded.contains("\\"), !decoded.contains("\0")
        else { return nil }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/") {
            if segment == "." { continue }
            // `..` never climbs; hidden files (.git, .env) are not served.
            if segment.first == "." { return nil }
            segments.append(segment)
        }
        var candidate = root + "/" + segments.joined(separator: "/")
        var info = stat()
        guard stat(candidate, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFDIR { candidate += "/index.html" }
        guard let real = realpath(candidate, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        guard resolved.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return resolved
    }

    private func load(_ path: String) -> CachedFile? {
        var info = stat()
        guard stat(path, &info) == 0, Int(info.st_size) <= maxFileSize else { return nil }
        let version = FileVersion(info)
        if let cached = cache.withLock({ $0[path] }), cached.version == version { return cached }
        guard let bytes = Self.readFile(path, size: Int(info.st_size)) else { return nil }
        let fileExtension = Self.fileExtension(path)
        let file = CachedFile(bytes: bytes, version: version, fileExtension: fileExtension)
        if bytes.count <= maxCachedFileSize { cache.withLock { $0[path] = file } }
        return file
    }

    /// What follows the last `.` of the file's name ("" without one).
    private static func fileExtension(_ path: String) -> String {
        path.split(separator: "/").last.flatMap { name in
            name.contains(".") ? String(name.split(separator: ".").last!) : nil
        } ?? ""
    }

    private static func readFile(_ path: String, size: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    static func acceptsGzip(_ headers: HTTPHeaders) -> Bool {
        var gzip: Bool?
        var wildcard = false
        for token in headers.tokens("Accept-Encoding") {
            let parts = token.split(separator: ";").map { $0.trimmingOWS() }
            let refused = parts.dropFirst().contains { $0.hasPrefix("q=") && (Double($0.dropFirst(2)) ?? 1) == 0 }
            if parts[0] == "gzip" || parts[0] == "x-gzip" { gzip = !refused }
            if parts[0] == "*" { wildcard = !refused }
        }
        return gzip ?? wildcard
    }

    /// Weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored; either representation's tag matches.
    static func matches(_ tags: [String], _ file: CachedFile) -> Bool {
        tags.contains { tag in
            let bare = tag.hasPrefix("w/") ? String(tag.dropFirst(2)) : tag
            return bare == "*" || bare == file.etag.lowercased() || bare == file.gzipETag.lowercased()
        }
    }
}

/// What identifies one version of a file on disk.
struct FileVersion: Equatable {
    let size: Int
    let modified: timespec
    let inode: UInt

    init(_ info: stat) {
        size = Int(info.st_size)
        modified = info.st_mtim
        inode = UInt(info.st_ino)
    }

    static func == (lhs: FileVersion, rhs: FileVersion) -> Bool {
        lhs.size == rhs.size && lhs.inode == rhs.inode
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
    }
}

struct CachedFile: @unchecked Sendable {
    let bytes: [UInt8]
    let gzipped: [UInt8]?
    let version: FileVersion
    let contentType: String
    let etag: String
    let gzipETag: String

    init(bytes: [UInt8], version: FileVersion, fileExtension: String) {
        self.bytes = bytes
        self.version = version
        let media = MediaType.forExtension(fileExtension)
        contentType = media.type
        // Only worth it when the file is compressible and the result is really smaller.
        if media.compressible, bytes.count >= 256, let compressed = Gzip.compress(bytes), compressed.count < bytes.count {
            gzipped = compressed
        } else {
            gzipped = nil
        }
        let hash = String(Self.fnv1a(bytes), radix: 16)
        etag = "\"\(hash)\""
        gzipETag = "\"\(hash)-gz\""
    }

    /// FNV-1a, 64 bits: a content hash for ETags (not a security property: it only decides
    /// whether a client's copy is current).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
