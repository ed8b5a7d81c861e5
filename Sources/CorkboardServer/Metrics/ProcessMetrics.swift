import Prometheus

/// The standard `process_` families every Prometheus client library exports (resident
/// memory, CPU time, file descriptors, start time), brought up to date at each scrape.
/// Updated only under `ServerMetrics`' lock, which is why it may keep the last CPU reading.
final class ProcessMetrics: @unchecked Sendable {
    private let residentBytes: Gauge
    private let cpuSeconds: Counter
    private let openFileDescriptors: Gauge
    private let maxFileDescriptors: Gauge
    private let startTime: Gauge
    /// The CPU time last copied in: the counter only ever grows by the difference.
    private var copiedCPUSeconds = 0.0

    init(registry: PrometheusCollectorRegistry) {
        residentBytes = registry.makeGauge(descriptor: .named("process_resident_memory_bytes", help: "Resident memory size in bytes."))
        cpuSeconds = registry.makeCounter(descriptor: .named("process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds."))
        openFileDescriptors = registry.makeGauge(descriptor: .named("process_open_fds", help: "Number of open file descriptors."))
        maxFileDescriptors = registry.makeGauge(descriptor: .named("process_max_fds", help: "Maximum number of open file descriptors."))
        startTime = registry.makeGauge(descriptor: .named("process_start_time_seconds", help: "Start time of the process since unix epoch in seconds."))
    }

    func update() {
        guard let figures = ProcessFigures.read() else { return }
        residentBytes.set(figures.residentBytes)
        openFileDescriptors.set(figures.openFileDescriptors)
        maxFileDescriptors.set(figures.maxFileDescriptors)
        startTime.set(figures.startTime)
        if figures.cpuSeconds > copiedCPUSeconds {
            cpuSeconds.increment(by: figures.cpuSeconds - copiedCPUSeconds)
            copiedCPUSeconds = figures.cpuSeconds
        }
    }
}
