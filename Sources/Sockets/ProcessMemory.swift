#if canImport(Glibc)
    import Glibc

    /// glibc's `mallopt`, which Swift's Glibc module leaves out (it is in `<malloc.h>`).
    @_silgen_name("mallopt")
    private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// Process-wide memory settings for a server.
public enum ProcessMemory {
    /// Caps glibc's malloc arenas (its default is eight per core). A server's threads are a
    /// few I/O loops, queues and the store; with an arena for every thread that ever
    /// allocated, memory freed after a burst (a wave of joins) stays spread over many arenas
    /// and in the resident size. Call before the server starts threads. No-op elsewhere.
    public static func limitMallocArenas(to count: Int32) {
        #if canImport(Glibc)
            let arenaMax: Int32 = -8 // M_ARENA_MAX in <malloc.h>
            _ = mallopt(arenaMax, count)
        #endif
    }
}
