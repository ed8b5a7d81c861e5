import CEpoll
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Threads that read many bench clients' sockets with plain, level-triggered epoll.
///
/// Thousands of members each receive every broadcast, and the bench runs on the same cores as
/// the server it measures: reading through a dispatch source per socket (a wake-up, a re-arm
/// and a block per message) made the bench process, not the server, the limit of the fan-out
/// scenario. Here one `epoll_wait` returns many ready sockets and each is read once per turn.
final class EpollReceivers: Sendable {
    private let epolls: [Int32]
    /// Each thread's members by descriptor (a table per thread: one shared table's lock was
    /// the bench's hottest spot).
    private let members: [MemberTable]
    private let running = Atomic<Bool>(true)
    private let stopped = DispatchGroup()
    private let nextIndex = Atomic<Int>(0)

    init(threads: Int = 2) {
        epolls = (0..<max(1, threads)).map { _ in epoll_create1(Int32(EPOLL_CLOEXEC)) }
        members = epolls.map { _ in MemberTable() }
        for index in epolls.indices {
            stopped.enter()
            let thread = Thread { [self] in
                receive(on: index)
                stopped.leave()
            }
            thread.start()
        }
    }

    /// Starts reading `member`'s socket (after its welcome).
    func add(_ member: LeanMember) {
        let index = nextIndex.add(1, ordering: .relaxed).oldValue % epolls.count
        members[index].table.withLock { $0[member.fd] = member }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        event.data.fd = member.fd
        _ = epoll_ctl(epolls[index], EPOLL_CTL_ADD, member.fd, &event)
    }

    /// Stops reading `members` and closes their sockets.
    func retire(_ retired: [LeanMember]) {
        for table in members {
            table.table.withLock { members in
                for member in retired where members[member.fd] === member { members.removeValue(forKey: member.fd) }
            }
        }
        for member in retired { member.close() }
    }

    /// Stops the threads and closes every member's socket.
    func stop() {
        running.store(false, ordering: .relaxed)
        stopped.wait()
        for epoll in epolls { close(epoll) }
        for table in members {
            for member in table.table.withLock({ $0.values }) { member.close() }
        }
    }

    private func receive(on index: Int) {
        let epoll = epolls[index]
        let members = self.members[index]
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var events = [epoll_event](repeating: epoll_event(), count: 512)
        while running.load(ordering: .relaxed) {
            let ready = epoll_wait(epoll, &events, Int32(events.count), 50)
            guard ready > 0 else { continue }
            for index in 0..<Int(ready) {
                let fd = events[index].data.fd
                guard let member = members.table.withLock({ $0[fd] }), !member.isClosed else { continue }
                if !member.readAvailable(into: buffer) {
                    // Finished (the server closed it): stop watching, unless the number
                    // already belongs to a newer member.
                    let current = members.table.withLock { members -> Bool in
                        guard members[fd] === member else { return false }
                        members.removeValue(forKey: fd)
                        return true
                    }
                    if current {
                        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
                        member.close()
                    }
                }
            }
        }
    }
}

/// One receiver thread's members by descriptor.
private final class MemberTable: Sendable {
    let table = Mutex<[Int32: LeanMember]>([:])
}
