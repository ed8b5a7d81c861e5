import Foundation
import Glibc
import TestSupport
import Testing

/// The proxy that ResumeTests and the soak break connections with (Tests/TestSupport): it must
/// pass bytes and orderly closes as they are, reset both sides when severed, keep accepting
/// after that, and leave no thread behind once stopped.
@Suite(.threadsOfTheirOwn) struct SeveringProxyTests {
    @Test func bytesAndOrderlyClosesPassAsTheyAre() throws {
        let target = try LoopbackListener()
        let proxy = try SeveringProxy(to: target.port)
        let client = try BlockingClient(port: proxy.port)
        let server = try target.accept()

        try client.send("hello")
        #expect(try receive(5, from: server) == "hello")
        try server.send("world")
        #expect(try receive(5, from: client) == "world")

        // A half-close reaches the other side as one, and the other way still works.
        client.finishSending()
        #expect(try server.receiveSome() == nil)
        try server.send("bye")
        #expect(try receive(3, from: client) == "bye")
        server.finishSending()
        #expect(try client.receiveSome() == nil)
        proxy.stop()
    }

    @Test func severAllResetsBothSidesAndNewConnectionsStillPass() throws {
        let target = try LoopbackListener()
        let proxy = try SeveringProxy(to: target.port)
        let pairs = try (0..<2).map { _ in
            let client = try BlockingClient(port: proxy.port)
            let server = try target.accept()
            // Through: the proxy has connected to the target and relays.
            try client.send("ping")
            #expect(try receive(4, from: server) == "ping")
            return (client, server)
        }

        #expect(proxy.severAll() == 2)
        for (client, server) in pairs {
            // A reset on both sides, as a broken network gives, not an orderly close.
            #expect(receiveFailure(client)?.contains("reset") == true)
            #expect(receiveFailure(server)?.contains("reset") == true)
        }
        #expect(proxy.severAll() == 0)

        // A new connection (a client's reconnect) goes through again.
        let client = try BlockingClient(port: proxy.port)
        let server = try target.accept()
        try client.send("again")
        #expect(try receive(5, from: server) == "again")
        try server.send("welcome")
        #expect(try receive(7, from: client) == "welcome")
        proxy.stop()
    }

    @Test func stopResetsItsConnectionsRefusesNewOnesAndEndsItsThreads() throws {
        let target = try LoopbackListener()
        let proxy = try SeveringProxy(to: target.port)
        let client = try BlockingClient(port: proxy.port)
        let server = try target.accept()
        try client.send("ping")
        #expect(try receive(4, from: server) == "ping")
        // Its threads are named after its port: one accepting, two relaying the connection
        // (each names itself when it starts running).
        #expect(eventually { threads(named: "px\(proxy.port) ") == 3 })

        proxy.stop()
        #expect(receiveFailure(client)?.contains("reset") == true)
        #expect(receiveFailure(server)?.contains("reset") == true)
        #expect(throws: BlockingClient.Failure.self) { try BlockingClient(port: proxy.port) }
        // A thread may take a moment to exit after it said it was done.
        #expect(eventually { threads(named: "px\(proxy.port) ") == 0 })
        proxy.stop()
    }

    /// Reads exactly `count` bytes, as text.
    private func receive(_ count: Int, from socket: BlockingClient) throws -> String {
        var bytes: [UInt8] = []
        while bytes.count < count {
            guard let chunk = try socket.receiveSome() else { break }
            bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why reading failed (nil if it did not: bytes or an orderly end came).
    private func receiveFailure(_ socket: BlockingClient) -> String? {
        do {
            _ = try socket.receiveSome()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// How many of this process's threads have a name starting with `prefix`.
    private func threads(named prefix: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.count { task in
            let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return name.hasPrefix(prefix)
        }
    }
}

/// A listening socket on 127.0.0.1 that plays the server behind the proxy.
private final class LoopbackListener {
    let fd: Int32
    let port: UInt16

    init() throws { (fd, port) = try listenOnLoopback(backlog: 8) }

    deinit { close(fd) }

    /// The next connection, waited for at most 5 s.
    func accept() throws -> BlockingClient {
        var watch = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&watch, 1, 5000) > 0 else { throw BlockingClient.Failure(description: "no connection within 5 s") }
        let connection = Glibc.accept(fd, nil, nil)
        guard connection >= 0 else { throw BlockingClient.Failure(description: "accept: \(String(cString: strerror(errno)))") }
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        return BlockingClient(adopting: connection)
    }
}
