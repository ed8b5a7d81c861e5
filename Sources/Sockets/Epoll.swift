import CEpoll
import Glibc

/// One epoll instance: the descriptors an `IOLoop` watches, each with the events it waits for
/// (level-triggered) and a 64-bit token that comes back with its readiness. Its descriptor is
/// closed by its owner (`IOLoop`, once the source watching it is cancelled).
struct Epoll {
    let fd: Int32

    /// Events as `epoll_ctl` takes them.
    struct Events: OptionSet, Hashable {
        let rawValue: UInt32
        static let readable = Events(rawValue: EPOLLIN.rawValue)
        static let writable = Events(rawValue: EPOLLOUT.rawValue)
        /// Reported whether asked for or not: the peer reset, or both directions are shut.
        static let failedOrHungUp = Events(rawValue: EPOLLERR.rawValue | EPOLLHUP.rawValue)
    }

    /// Made once per loop at startup; a process that cannot have one cannot serve anything.
    init() {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(fd >= 0, "\(SocketError("epoll_create1"))")
        self.fd = fd
    }

    /// Starts watching `descriptor` for `events`. Returns 0 or the errno (ENOMEM, ENOSPC: out
    /// of kernel memory or past `max_user_watches`).
    func add(_ descriptor: Int32, events: Events, token: UInt64) -> Int32 {
        control(EPOLL_CTL_ADD, descriptor, events, token)
    }

    func modify(_ descriptor: Int32, events: Events, token: UInt64) -> Int32 {
        control(EPOLL_CTL_MOD, descriptor, events, token)
    }

    /// Stops watching `descriptor`: before it is closed, so that its number, free for reuse
    /// the moment it closes, is never watched for a stranger.
    func remove(_ descriptor: Int32) {
        var unused = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, &unused)
    }

    private func control(_ operation: Int32, _ descriptor: Int32, _ events: Events, _ token: UInt64) -> Int32 {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token
        return epoll_ctl(fd, operation, descriptor, &event) == 0 ? 0 : errno
    }

    /// The descriptors ready now, without waiting: up to `capacity` into `events`.
    func ready(into events: UnsafeMutablePointer<epoll_event>, capacity: Int) -> Int {
        while true {
            let count = epoll_wait(fd, events, Int32(capacity), 0)
            if count >= 0 { return Int(count) }
            if errno != EINTR { return 0 }
        }
    }
}
