import Glibc

/// The CPU a process has spent, from `/proc/PID/stat` (all its threads, user and system apart):
/// read before and after a fixed workload, the difference is what the server spent on it,
/// whatever else the machine was doing meanwhile (issue #36).
public struct ServerCPU: Sendable, Equatable {
    public var userSeconds: Double
    public var systemSeconds: Double
    public var totalSeconds: Double { userSeconds + systemSeconds }

    public init(userSeconds: Double, systemSeconds: Double) {
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
    }

    /// What process `pid` has spent so far; nil when it is gone or /proc cannot be read.
    public static func of(pid: Int32) -> ServerCPU? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return parse(stat: stat, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// A `/proc/PID/stat` line: `utime` and `stime` are its 14th and 15th fields, in clock
    /// ticks. The 2nd, the command in parentheses, may hold spaces and parentheses itself, so
    /// the fields are counted after its last `)`.
    public static func parse(stat: String, ticksPerSecond: Double) -> ServerCPU? {
        guard ticksPerSecond > 0, let close = stat.lastIndex(of: ")") else { return nil }
        // Fields 3… (state, ppid, …): utime is the 12th of them, stime the 13th.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return ServerCPU(userSeconds: user / ticksPerSecond, systemSeconds: system / ticksPerSecond)
    }

    /// What was spent between `earlier` and this reading.
    public func since(_ earlier: ServerCPU) -> ServerCPU {
        ServerCPU(userSeconds: userSeconds - earlier.userSeconds, systemSeconds: systemSeconds - earlier.systemSeconds)
    }
}

extension BenchTarget {
    /// The server's CPU so far: our own child's, or that of the external server whose process
    /// id was given. Throws when neither can be read.
    func serverCPU() throws -> ServerCPU {
        guard let pid = serverProcessIDForMeasuring, let cpu = ServerCPU.of(pid: pid) else {
            throw Failure(description: "cannot read the server's CPU: give its process id with --pid")
        }
        return cpu
    }
}
