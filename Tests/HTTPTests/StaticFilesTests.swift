import Foundation
import TestSupport
import Testing

@testable import HTTP

@Suite struct StaticFilesTests {
    let folder: TemporaryDirectory
    let outside: TemporaryDirectory
    let files: StaticFiles
    let page = "<!doctype html><title>Board</title>" + String(repeating: "<p>card</p>", count: 100)

    init() throws {
        folder = try TemporaryDirectory()
        outside = try TemporaryDirectory()
        try folder.write("index.html", page)
        try folder.write("app.js", "export const x = 1;")
        try folder.write("img/logo.png", Data([0x89, 0x50, 0x4E, 0x47]))
        try folder.write("docs/index.html", "docs")
        try folder.write(".env", "SECRET=1")
        try outside.write("secret.txt", "top secret")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/escape", withDestinationPath: outside.path + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/escape-dir", withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/alias.js", withDestinationPath: folder.path + "/app.js")
        files = try StaticFiles(root: folder.path)
    }

    private func get(_ target: String, _ headers: HTTPHeaders = [:], method: HTTPMethod = .GET) -> HTTPResponse {
        files.response(to: HTTPRequest(method: method, target: target, headers: headers))
    }

    @Test func servesIndexForRootAndFolders() {
        #expect(get("/").body == Array(page.utf8))
        #expect(get("/docs/").body == Array("docs".utf8))
        #expect(get("/docs").body == Array("docs".utf8))
    }

    @Test func contentTypes() {
        #expect(get("/").headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(get("/app.js").headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(get("/img/logo.png").headers["Content-Type"] == "image/png")
    }

    @Test func etagAndIfNoneMatch() {
        let first = get("/app.js")
        let tag = try! #require(first.headers["ETag"])
        #expect(get("/app.js", ["If-None-Match": tag]).status == .notModified)
        #expect(get("/app.js", ["If-None-Match": "W/\(tag)"]).status == .notModified)
        #expect(get("/app.js", ["If-None-Match": "\"other\", \(tag)"]).status == .notModified)
        #expect(get("/app.js", ["If-None-Match": "*"]).status == .notModified)
        #expect(get("/app.js", ["If-None-Match": "\"other\""]).status == .ok)
        #expect(get("/app.js", ["If-None-Match": tag]).body.isEmpty)
    }

    @Test func etagChangesWhenTheFileChanges() throws {
        let before = get("/app.js").headers["ETag"]
        try folder.write("app.js", "export const x = 2; // changed")
        let after = get("/app.js")
        #expect(after.headers["ETag"] != before)
        #expect(after.body == Array("export const x = 2; // changed".utf8))
    }

    @Test func gzipWhenAccepted() throws {
        let plain = get("/")
        let zipped = get("/", ["Accept-Encoding": "br, gzip;q=0.8"])
        #expect(zipped.headers["Content-Encoding"] == "gzip")
        #expect(zipped.body.count < plain.body.count)
        #expect(zipped.body.starts(with: [0x1f, 0x8b]))
        #expect(zipped.headers["ETag"] != plain.headers["ETag"])
        #expect(zipped.headers["Vary"] == "Accept-Encoding")
        #expect(get("/", ["Accept-Encoding": "gzip;q=0"]).headers["Content-Encoding"] == nil)
        #expect(get("/", ["Accept-Encoding": "*"]).headers["Content-Encoding"] == "gzip")
        #expect(get("/", ["Accept-Encoding": "*, gzip;q=0"]).headers["Content-Encoding"] == nil)
        // Tiny and already compressed files stay as they are.
        #expect(get("/app.js", ["Accept-Encoding": "gzip"]).headers["Content-Encoding"] == nil)
        #expect(get("/img/logo.png", ["Accept-Encoding": "gzip"]).headers["Content-Encoding"] == nil)
    }

    @Test func gzipBodyInflatesToTheFile() throws {
        let zipped = get("/", ["Accept-Encoding": "gzip"]).body
        let folder = try TemporaryDirectory()
        let path = try folder.write("page.gz", Data(zipped))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let inflated = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: inflated, as: UTF8.self) == page)
    }

    @Test(arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/etc/passwd", "/docs/../../secret.txt",
        "/..%2fsecret.txt", "/..%2Fsecret.txt", "/%2fetc%2fpasswd", "/..%5csecret.txt", "/docs\\..\\index.html",
        "/index.html%00.png", "/escape", "/escape-dir/secret.txt", "/.env", "/%2eenv", "/nothing.html",
        "//etc/passwd", "/etc/passwd", "/%zz", "/img/logo.png/..",
    ])
    func nothingOutsideTheRootIsServed(target: String) {
        #expect(get(target).status.code == 404)
    }

    @Test func symlinkInsideTheRootIsServed() {
        #expect(get("/alias.js").body == Array("export const x = 1;".utf8))
    }

    @Test func dotSegmentsThatStayInsideAreFine() {
        #expect(get("/./app.js").status == .ok)
        #expect(get("/docs/./index.html").status == .ok)
    }

    @Test func otherMethodsAre405() {
        let response = get("/app.js", method: .POST)
        #expect(response.status.code == 405)
        #expect(response.headers["Allow"] == "GET, HEAD")
    }

    @Test func missingRootIsAnError() {
        #expect(throws: StaticFiles.MissingRoot.self) { try StaticFiles(root: folder.path + "/nope") }
        #expect(throws: StaticFiles.MissingRoot.self) { try StaticFiles(root: folder.path + "/app.js") }
    }
}

/// Files too large to cache are streamed: the same bytes, an ETag from the file's identity,
/// and 304 for a client that has them.
@Suite struct LargeStaticFileTests {
    @Test func aLargeFileIsStreamedWhole() throws {
        let folder = try TemporaryDirectory()
        let bytes = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try folder.write("big.bin", Data(bytes))
        let files = try StaticFiles(root: folder.path)
        let response = files.response(to: HTTPRequest(method: .GET, target: "/big.bin"))
        let stream = try #require(response.stream)
        #expect(response.status == .ok)
        #expect(stream.length == bytes.count)
        let next = stream.makePieces()
        var body: [UInt8] = []
        for _ in 0..<1000 {
            guard let piece = next() else { break }
            #expect(piece.count <= 64 * 1024)
            body += piece
        }
        #expect(body == bytes)
        let etag = try #require(response.headers["ETag"])
        let again = files.response(to: HTTPRequest(method: .GET, target: "/big.bin", headers: ["If-None-Match": etag]))
        #expect(again.status == .notModified)
    }
}
