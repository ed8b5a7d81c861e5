import Foundation
import Glibc

/// A plain blocking TCP client for tests: it plays browsers, curl and hostile peers byte by byte.
/// Every read has a timeout, so a test that waits for something that never comes fails instead of hanging.
/// Sendable so one thread may send while another receives; `buffered` is only touched by receivers.
public final class BlockingClient: @unchecked Sendable {
    public let fd: Int32
    private var buffered: [UInt8] = []

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public init(host: String = "127.0.0.1", port: UInt16, timeout: Double = 5) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(first) }
        // Close-on-exec: a server process started by a parallel test must not inherit this
        // socket, or closing it here would not end the connection.
        // A local until connected: were `self.fd` set before a throw, deinit would close the
        // descriptor a second time, by then perhaps another test's socket (a server's
        // connection closed under it, with no response).
        let descriptor = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        Self.setTimeouts(descriptor, timeout)
        guard connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw Failure(description: "connect to \(host):\(port): \(String(cString: strerror(code)))")
        }
        fd = descriptor
    }

    /// Takes over a connected socket, such as one a test accepted to play the server, and
    /// closes it when released.
    public init(adopting descriptor: Int32, timeout: Double = 5) {
        Self.setTimeouts(descriptor, timeout)
        fd = descriptor
    }

    deinit { Glibc.close(fd) }

    private static func setTimeouts(_ descriptor: Int32, _ timeout: Double) {
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Shrinks the receive buffer: a peer that never reads then stops taking bytes early.
    public func setReceiveBuffer(_ bytes: Int32) {
        var value = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Half-closes: the server sees EOF but can still answer.
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Closes with RST instead of FIN, as a crashed peer would.
    public func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Closes the socket with a reset (RST), as a crashed peer or a cut network does; the
    /// descriptor then reads /dev/null, so `deinit` closes nothing twice. (`reset()` shuts the
    /// socket down, which sends a FIN.)
    public func abortWithReset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        dup2(null, fd)
        Glibc.close(null)
    }

    /// Reads whatever arrives next (nil on EOF; throws on timeout).
    public func receiveSome() throws -> [UInt8]? {
        if !buffered.isEmpty {
            defer { buffered = [] }
            return buffered
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { return nil }
        guard count > 0 else {
            throw Failure(description: errno == EAGAIN ? "timed out waiting for data" : "recv: \(String(cString: strerror(errno)))")
        }
        return Array(chunk[0..<count])
    }

    /// True once something can be read (or the peer has closed), without reading it.
    public func waitUntilReadable(timeout: Double = 30) -> Bool {
        if !buffered.isEmpty { return true }
        var watch = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&watch, 1, Int32(timeout * 1000)) > 0
    }

    /// Reads until the peer closes. Throws on timeout.
    public func receiveUntilClosed() throws -> [UInt8] {
        var all: [UInt8] = []
        while let chunk = try receiveSome() { all += chunk }
        return all
    }

    /// True when the server has closed the connection (EOF or reset) within the timeout.
    public func isClosedByPeer() -> Bool {
        do {
            while try receiveSome() != nil {}
            return true
        } catch let failure as Failure {
            return !failure.description.contains("timed out")
        } catch {
            return true
        }
    }

    /// Reads exactly one HTTP response. `bodyless` for HEAD requests.
    public func receiveResponse(bodyless: Bool = false) throws -> TestHTTPResponse {
        while true {
            if let (response, used) = TestHTTPResponse.parse(buffered, bodyless: bodyless) {
                buffered.removeFirst(used)
                return response
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { throw Failure(description: "connection closed before a full response; got \(String(decoding: buffered, as: UTF8.self))") }
            guard count > 0 else {
                let reason = errno == EAGAIN ? "timed out waiting for a response" : "recv: \(String(cString: strerror(errno)))"
                throw Failure(description: "\(reason); got \(buffered.count) bytes")
            }
            buffered += chunk[0..<count]
        }
    }

    /// One request and its response on a fresh connection.
    public static func request(port: UInt16, _ raw: String, bodyless: Bool = false, host: String = "127.0.0.1") throws -> TestHTTPResponse {
        let client = try BlockingClient(host: host, port: port)
        try client.send(raw)
        return try client.receiveResponse(bodyless: bodyless)
    }
}

/// A response as a test sees it.
public struct TestHTTPResponse {
    public let status: Int
    public let headers: [(String, String)]
    public let body: [UInt8]

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Parses one response from the front of `bytes`; nil until it is complete.
    static func parse(_ bytes: [UInt8], bodyless: Bool) -> (TestHTTPResponse, Int)? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == terminator }) else { return nil }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        let headers = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length =
            bodyless || status == 304 || status == 204 || status < 200
            ? 0
            : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
        let bodyStart = end + 4
        guard bytes.count >= bodyStart + length else { return nil }
        return (TestHTTPResponse(status: status, headers: headers, body: Array(bytes[bodyStart..<bodyStart + length])), bodyStart + length)
    }
}
