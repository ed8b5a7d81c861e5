import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import CorkboardBench

/// The lean bench client's resume, against a scripted server on a loopback socket: the hello
/// carries `resume`, and what arrives in the same read as the welcome (the replay's first
/// events) is counted before the join returns, not when the socket next becomes readable.
@Suite(.threadsOfTheirOwn) struct LeanMemberResumeTests {
    // A hang guard only: the test waits for a thread of the blocking executor, behind the
    // run's long socket tests (it went over one minute so on CI, taking milliseconds itself).
    @Test(.runningTimeLimit(.minutes(5))) func theHelloResumesAndTheReplayThatCameWithTheWelcomeIsCounted() throws {
        let server = try ScriptedServer()
        let hello = Mutex<String?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { answered.signal() }
            guard let client = server.acceptOne() else { return }
            defer { close(client) }
            guard server.read(client, until: Array("\r\n\r\n".utf8)) != nil else { return }
            server.write(client, Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n".utf8))
            hello.withLock { $0 = server.readMaskedTextFrame(client) }
            // The welcome and the replay's event in one write: they arrive in one read.
            let welcome = #"{"type":"welcome","client":"c1","role":"editor","epoch":"e1","seq":3,"resumed":true,"peers":[],"count":1}"#
            let event = #"{"type":"committed","seq":4,"opId":"o1","author":"a","at":0,"op":{"type":"rename","title":"t"}}"#
            server.write(client, ScriptedServer.textFrame(welcome) + ScriptedServer.textFrame(event))
            answered.signal()
            // Nothing more, and the socket stays open: as a quiet board until its next ping.
            _ = done.wait(timeout: .now() + 30)
        }.start()
        let member = try LeanMember(
            number: 1, host: "127.0.0.1", port: server.port, board: "b", listener: nil, resume: ResumePoint(epoch: "e1", seq: 3),
            timeout: 20)
        defer {
            member.close()
            done.signal()
        }
        _ = answered.wait(timeout: .now() + 20)
        let sent = try #require(hello.withLock { $0 })
        #expect(sent.contains(#""resume":{"epoch":"e1","seq":3}"#), "\(sent)")
        let log = member.log.withLock { $0 }
        #expect(log.welcomeSeq == 3 && log.resumed && log.epoch == "e1")
        #expect(log.arrivals.count == 1 && log.arrival(of: 4) != nil && log.nextSeq == 5)
    }
}

/// A listening loopback socket that plays a server's part byte by byte.
private final class ScriptedServer: Sendable {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        port = UInt16(bigEndian: address.sin_port)
        try #require(bound, "cannot listen: \(String(cString: strerror(errno)))")
    }

    deinit { close(fd) }

    func acceptOne() -> Int32? {
        let client = accept(fd, nil, nil)
        return client >= 0 ? client : nil
    }

    /// Reads until `end` has arrived (at most 64 KiB).
    func read(_ client: Int32, until end: [UInt8]) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.firstRange(of: end) == nil && bytes.count < 64 * 1024 {
            let count = Glibc.read(client, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// One masked client text frame shorter than 64 KiB, unmasked.
    func readMaskedTextFrame(_ client: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if bytes.count >= 2 {
                let short = Int(bytes[1] & 0x7F)
                let (length, start) = short == 126 && bytes.count >= 4 ? (Int(bytes[2]) << 8 | Int(bytes[3]), 8) : (short, 6)
                if short <= 126, bytes.count >= start + length {
                    let key = bytes[start - 4..<start].map { $0 }
                    return String(decoding: bytes[start..<start + length].enumerated().map { $0.element ^ key[$0.offset & 3] }, as: UTF8.self)
                }
            }
            let count = Glibc.read(client, &buffer, buffer.count)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
        }
    }

    func write(_ client: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// An unmasked server text frame (payloads under 64 KiB).
    static func textFrame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        let head: [UInt8] = payload.count < 126 ? [0x81, UInt8(payload.count)] : [0x81, 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        return head + payload
    }
}
