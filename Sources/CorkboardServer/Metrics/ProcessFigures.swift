import Foundation
import Glibc

/// What the standard Prometheus `process_` metrics report, read from /proc at each scrape
/// (Linux only; elsewhere, or when /proc cannot be read, there is nothing to report).
struct ProcessFigures: Equatable {
    var residentBytes: Double
    var cpuSeconds: Double
    var openFileDescriptors: Double
    var maxFileDescriptors: Double
    /// Since the Unix epoch.
    var startTime: Double

    static func read() -> ProcessFigures? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let bootTime = bootTime(),
            // The command name (field 2) is in parentheses and may hold spaces: count after it.
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields from the state (field 3) on: utime is field 14, stime 15, starttime 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let pages = statm.split(separator: " ")
        guard fields.count > 19, pages.count > 1, let userTicks = Double(fields[11]), let systemTicks = Double(fields[12]),
            let startTicks = Double(fields[19]), let residentPages = Double(pages[1])
        else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return ProcessFigures(
            residentBytes: residentPages * Double(sysconf(Int32(_SC_PAGESIZE))),
            cpuSeconds: (userTicks + systemTicks) / ticksPerSecond,
            // The listing itself held one descriptor open.
            openFileDescriptors: Double(max(0, open - 1)),
            maxFileDescriptors: Double(limit.rlim_cur),
            startTime: bootTime + startTicks / ticksPerSecond)
    }

    /// The `btime` line of /proc/stat: when the machine booted, in seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count))
        }
        return nil
    }
}
