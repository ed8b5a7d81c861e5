import Foundation

/// Turns the records of one comparison run (every scenario against every server) into the
/// Markdown tables of `bench/results/README.md`, with Corkboard's ratio to each peer and the
/// issue's goals checked, and an SVG plot of the fan-out steps.
public struct ComparisonReport {
    public let records: [BenchRecord]
    /// Corkboard first, then the peers in the order they first appear.
    public let servers: [String]

    /// uWebSockets' fan-out capacity as measured by issue #11's authors: the goal's yardstick
    /// when the run has no `uws` peer (bench/peers/uws) of its own.
    static let uWebSocketsCapacity = 6_000.0
    /// The uWebSockets peer's name in the records (issue #36).
    static let uWebSocketsServer = "uws"
    /// Corkboard on its embedded store (SQLite at default durability): not a peer, and reported
    /// apart, since every peer (and `corkboard` in the other tables) persists nothing.
    public static let durableServer = "corkboard-sqlite"

    public init(records: [BenchRecord]) {
        self.records = records
        var seen: [String] = []
        for record in records where !seen.contains(record.server) && record.server != Self.durableServer {
            seen.append(record.server)
        }
        servers = seen.filter { $0 == "corkboard" } + seen.filter { $0 != "corkboard" }
    }

    func record(_ server: String, _ scenario: String, _ variant: String = "") -> BenchRecord? {
        records.last { $0.server == server && $0.scenario == scenario && $0.variant == variant }
    }

    var peers: [String] { servers.filter { $0 != "corkboard" } }

    // MARK: Markdown

    public func markdown(title: String, machine: String) -> String {
        var lines = ["# \(title)", "", machine, ""]
        lines += fanoutTable() + [""] + opsTable() + [""] + durableOpsTable() + [""] + echoTable() + [""] + memoryTable() + [""] + presenceTable()
        lines += [""] + cpuTable() + [""] + joinsTable()
        lines += [""] + goals()
        return lines.joined(separator: "\n") + "\n"
    }

    private func table(_ header: [String], _ rows: [[String]]) -> [String] {
        ["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---" }.joined(separator: "|") + "|"]
            + rows.map { "| " + $0.joined(separator: " | ") + " |" }
    }

    /// "2.3×" of Corkboard's figure over the peer's (or the peer's over Corkboard's when lower is better).
    private func ratio(_ ours: Double?, _ theirs: Double?, lowerIsBetter: Bool = false) -> String {
        guard let ours, let theirs, ours > 0, theirs > 0 else { return "–" }
        return String(format: "%.2f×", lowerIsBetter ? theirs / ours : ours / theirs)
    }

    private func number(_ value: Double?, _ format: String = "%.0f") -> String {
        value.map { String(format: format, $0) } ?? "–"
    }

    private func fanoutTable() -> [String] {
        let ours = record("corkboard", "fanout")?.figures["capacity"]
        let limit = records.first { $0.scenario == "fanout" }?.figures["limit_ms"] ?? 250
        return ["## Fan-out capacity (clients on one board, p95 from a move to the last member's `committed` under \(Int(limit)) ms)", ""]
            + table(
                ["server", "capacity", "p50 at capacity", "p95 at capacity", "p99 at capacity", "Corkboard ×", "why it stopped"],
                servers.compactMap { server in
                    guard let run = record(server, "fanout") else { return nil }
                    return [
                        server, number(run.figures["capacity"]), number(run.latency?.p50, "%.1f ms"),
                        number(run.latency?.p95, "%.1f ms"), number(run.latency?.p99, "%.1f ms"),
                        server == "corkboard" ? "" : ratio(ours, run.figures["capacity"]), run.notes.first ?? "",
                    ]
                })
    }

    /// The `ops` records' variants, in the tables' order.
    static let opsVariants = ["1 board", "100 boards"]

    private func opsTable() -> [String] {
        let variants = Self.opsVariants
        var header = ["server"]
        for variant in variants { header += ["\(variant): committed/s", "p50", "p99", "Corkboard ×"] }
        return ["## Committed moves per second (50 clients, one move in flight each; peers relay and persist nothing)", ""]
            + table(
                header,
                servers.compactMap { server in
                    guard variants.contains(where: { record(server, "ops", $0) != nil }) else { return nil }
                    return [server]
                        + variants.flatMap { variant -> [String] in
                            let run = record(server, "ops", variant)
                            return [
                                number(run?.figures["ops_per_second"]), number(run?.latency?.p50, "%.1f ms"), number(run?.latency?.p99, "%.1f ms"),
                                server == "corkboard"
                                    ? ""
                                    : ratio(
                                        record("corkboard", "ops", variant)?.figures["ops_per_second"],
                                        run?.figures["ops_per_second"]),
                            ]
                        }
                })
    }

    /// The same `ops` run against `corkboard serve --store sqlite` at its default `--sync full`:
    /// a `committed` leaves the server only once its batch is on disk (fsync).
    private func durableOpsTable() -> [String] {
        let rows = Self.opsVariants.compactMap { variant -> [String]? in
            guard let run = record(Self.durableServer, "ops", variant) else { return nil }
            let inMemory = record("corkboard", "ops", variant)?.figures["ops_per_second"]
            let share = inMemory.flatMap { memory in run.figures["ops_per_second"].map { String(format: "%.0f %%", 100 * $0 / memory) } }
            return [
                variant, number(run.figures["ops_per_second"]), number(run.latency?.p50, "%.1f ms"),
                number(run.latency?.p99, "%.1f ms"), share ?? "–",
            ]
        }
        guard !rows.isEmpty else { return [] }
        return ["## Committed moves per second on the embedded store (SQLite, `--sync full`: each `committed` is on disk first)", ""]
            + table(["boards", "committed/s", "p50", "p99", "of `--store memory`"], rows)
    }

    private func echoTable() -> [String] {
        let runs = servers.compactMap { server in records.last { $0.server == server && $0.scenario == "echo" } }
        guard !runs.isEmpty else { return [] }
        let ours = runs.first { $0.server == "corkboard" }?.figures["messages_per_second"]
        return ["## Echo (WebSocket only, no protocol)", ""]
            + table(
                ["server", "setting", "messages/s", "Corkboard ×"],
                runs.map { run in
                    [
                        run.server, run.variant, number(run.figures["messages_per_second"]),
                        run.server == "corkboard" ? "" : ratio(ours, run.figures["messages_per_second"]),
                    ]
                })
    }

    private func memoryTable() -> [String] {
        let plain = "no deflate", deflate = "deflate offered"
        return ["## Memory per idle connection (server RSS growth ÷ connections; joined to one of 100 boards)", ""]
            + table(
                ["server", "connections", "KiB per connection", "Corkboard uses", "with deflate offered", "deflate negotiated"],
                servers.compactMap { server in
                    guard let run = record(server, "memory", plain) else { return nil }
                    let withDeflate = record(server, "memory", deflate)
                    return [
                        server, number(run.figures["connections"]), number(run.figures["kib_per_connection"], "%.2f"),
                        server == "corkboard"
                            ? ""
                            : ratio(
                                record("corkboard", "memory", plain)?.figures["kib_per_connection"],
                                run.figures["kib_per_connection"], lowerIsBetter: true
                            ).replacingOccurrences(of: "×", with: "× less"),
                        number(withDeflate?.figures["kib_per_connection"], "%.2f"),
                        withDeflate.map { $0.figures["deflate_negotiated"] == 1 ? "yes" : "no" } ?? "–",
                    ]
                })
    }

    private func presenceTable() -> [String] {
        guard let run = record("corkboard", "presence") else { return [] }
        let figures = run.figures
        return ["## Presence (Corkboard only: the peers implement no drag state)", ""]
            + table(
                [
                    "draggers", "watchers", "drag.over sent/s", "drag received/s (all watchers)", "per watcher/s",
                    "delay p50", "p95", "p99", "disconnected",
                ],
                [
                    [
                        number(figures["draggers"]), number(figures["watchers"]), number(figures["sent_per_second"]),
                        number(figures["delivered_per_second"]), number(figures["per_watcher_per_second"]),
                        number(run.latency?.p50, "%.1f ms"), number(run.latency?.p95, "%.1f ms"), number(run.latency?.p99, "%.1f ms"),
                        number(figures["disconnected"]),
                    ]
                ])
    }

    /// Corkboard's CPU over each server's: above 1 Corkboard spent more on the same work.
    private func cpuShare(_ server: String, _ scenario: String) -> String {
        guard server != "corkboard", let ours = record("corkboard", scenario)?.figures["cpu_seconds"],
            let theirs = record(server, scenario)?.figures["cpu_seconds"], ours > 0, theirs > 0
        else { return server == "corkboard" ? "" : "–" }
        return String(format: "%.2f×", ours / theirs)
    }

    /// The fixed workload of issue #36 (`corkboard-bench cpu`): the same joins and moves on every server.
    private func cpuTable() -> [String] {
        let runs = servers.compactMap { server in record(server, "cpu").map { (server, $0) } }
        guard let (_, first) = runs.first else { return [] }
        let what = first.notes.first ?? "clients joining in steps, the same moves at each step"
        return [
            "## Server CPU on a fixed workload (\(what), joins included; every `committed` delivered exactly once and in order)",
            "",
        ]
            + table(
                ["server", "CPU (user + system)", "user", "system", "deliveries", "µs per delivery", "Corkboard's CPU ÷ theirs"],
                runs.map { server, run in
                    [
                        server, number(run.figures["cpu_seconds"], "%.2f s"), number(run.figures["user_seconds"], "%.2f s"),
                        number(run.figures["system_seconds"], "%.2f s"), number(run.figures["deliveries"]),
                        number(run.figures["microseconds_per_delivery"], "%.2f"), cpuShare(server, "cpu"),
                    ]
                })
    }

    /// Clients joining one board and staying (`corkboard-bench joins`): each join is announced
    /// to those there as far as the server announces joins; the bytes the members received show it.
    private func joinsTable() -> [String] {
        let runs = servers.compactMap { server in record(server, "joins").map { (server, $0) } }
        guard let (_, first) = runs.first else { return [] }
        return [
            "## Server CPU for \(number(first.figures["joins"])) joins (one board, \(number(first.figures["concurrency"])) at a time, each staying)",
            "",
        ]
            + table(
                [
                    "server", "CPU (user + system)", "user", "system", "ms per join", "members received", "of it membership news",
                    "Corkboard's CPU ÷ theirs",
                ],
                runs.map { server, run in
                    [
                        server, number(run.figures["cpu_seconds"], "%.2f s"), number(run.figures["user_seconds"], "%.2f s"),
                        number(run.figures["system_seconds"], "%.2f s"), number(run.figures["milliseconds_per_join"], "%.2f"),
                        run.figures["bytes"].map { String(format: "%.0f messages, %.1f MB", run.figures["messages"] ?? 0, $0 / 1e6) } ?? "–",
                        number(run.figures["membership_bytes"].map { $0 / 1e6 }, "%.1f MB"), cpuShare(server, "joins"),
                    ]
                })
    }

    // MARK: Goals

    /// The issue's goals, each with the figures that decide it.
    public func goals() -> [String] {
        var lines = ["## Goals (issues #11 and #36)", ""]
        func line(_ met: Bool?, _ text: String) {
            lines.append("- \(met.map { $0 ? "**met**" : "**not met**" } ?? "not measured"): \(text)")
        }
        let swiftPeers = peers.filter { $0.hasPrefix("hummingbird") || $0.hasPrefix("flyingfox") }
        let ours = record("corkboard", "fanout")?.figures["capacity"]
        let bestSwift = swiftPeers.compactMap { record($0, "fanout")?.figures["capacity"] }.max()
        line(
            ours.flatMap { ours in bestSwift.map { ours >= 2 * $0 } },
            "fan-out capacity at least 2× the best Swift peer: \(number(ours)) vs \(number(bestSwift)) (\(ratio(ours, bestSwift)))")
        if let measured = record(Self.uWebSocketsServer, "fanout")?.figures["capacity"] {
            line(
                ours.map { $0 >= 0.8 * measured },
                "fan-out capacity at least 0.8× uWebSockets (the uws peer, this run): \(number(ours)) vs 0.8 × \(number(measured)) = \(number(0.8 * measured)) (\(ratio(ours, measured)))"
            )
        } else {
            line(
                ours.map { $0 >= 0.8 * Self.uWebSocketsCapacity },
                "fan-out capacity at least 0.8× uWebSockets (5,500–6,000 clients in the issue's measurement, not run here): \(number(ours)) vs 0.8 × 6,000 = 4,800"
            )
        }
        let opsOurs = record("corkboard", "ops", "1 board")?.figures["ops_per_second"]
        for peer in peers {
            let theirs = record(peer, "ops", "1 board")?.figures["ops_per_second"]
            line(
                opsOurs.flatMap { ours in theirs.map { ours >= 2 * $0 } },
                "committed ops/s on one board at least 2× \(peer)'s relayed moves/s: \(number(opsOurs)) vs \(number(theirs)) (\(ratio(opsOurs, theirs)))")
        }
        let memory = record("corkboard", "memory", "no deflate")?.figures["kib_per_connection"]
        line(memory.map { $0 < 4 }, "under 4 KiB per idle connection without deflate: \(number(memory, "%.2f")) KiB")
        let uws = Self.uWebSocketsServer
        let cpuOurs = record("corkboard", "cpu")?.figures["cpu_seconds"]
        let cpuTheirs = record(uws, "cpu")?.figures["cpu_seconds"]
        line(
            cpuOurs.flatMap { ours in cpuTheirs.map { ours <= $0 } },
            "server CPU on the fixed workload at most uWebSockets' (issue #36): \(number(cpuOurs, "%.2f")) s vs \(number(cpuTheirs, "%.2f")) s (\(cpuShare(uws, "cpu")) of it)"
        )
        let joinsOurs = record("corkboard", "joins")?.figures["cpu_seconds"]
        let joinsTheirs = record(uws, "joins")?.figures["cpu_seconds"]
        line(
            joinsOurs.flatMap { ours in joinsTheirs.map { ours <= 2 * $0 } },
            "server CPU for the joins at most 2× uWebSockets', announcing each join (issue #36): \(number(joinsOurs, "%.2f")) s vs 2 × \(number(joinsTheirs, "%.2f")) s (\(cpuShare(uws, "joins")) of it)"
        )
        return lines
    }

    // MARK: Plot

    /// p95 (solid) and p50 (dotted) of each fan-out step against clients, one colour per server,
    /// with the limit as a dashed line.
    public func fanoutSVG() -> String {
        let runs = servers.compactMap { server in record(server, "fanout").map { (server, $0.steps ?? []) } }
        let limit = records.first { $0.scenario == "fanout" }?.figures["limit_ms"] ?? 250
        let maxClients = Double(runs.flatMap { $0.1.map(\.clients) }.max() ?? 1000)
        let maxLatency = max(limit * 1.2, min(limit * 3, runs.flatMap { $0.1.map(\.latency.p95) }.max() ?? limit))
        let (width, height, left, right, top, bottom) = (760.0, 420.0, 70.0, 170.0, 40.0, 50.0)
        func x(_ clients: Double) -> Double { left + clients / maxClients * (width - left - right) }
        func y(_ milliseconds: Double) -> Double { top + (1 - min(milliseconds, maxLatency) / maxLatency) * (height - top - bottom) }
        let colours = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
        var svg = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(height))" font-family="sans-serif" font-size="12">"#,
            #"<rect width="100%" height="100%" fill="white"/>"#,
            #"<text x="\#(Int(left))" y="22" font-size="14">Fan-out: time from a move to the last member's committed (p95 solid, p50 dotted)</text>"#,
        ]
        for tick in 0...5 {
            let value = maxLatency * Double(tick) / 5
            svg.append(#"<line x1="\#(left)" x2="\#(width - right)" y1="\#(y(value))" y2="\#(y(value))" stroke="rgb(230,230,230)"/>"#)
            svg.append(#"<text x="\#(left - 8)" y="\#(y(value) + 4)" text-anchor="end">\#(Int(value)) ms</text>"#)
        }
        for tick in 0...5 {
            let value = maxClients * Double(tick) / 5
            svg.append(#"<text x="\#(x(value))" y="\#(height - bottom + 18)" text-anchor="middle">\#(Int(value))</text>"#)
        }
        svg.append(#"<text x="\#((left + width - right) / 2)" y="\#(height - 12)" text-anchor="middle">clients on the board</text>"#)
        svg.append(#"<line x1="\#(left)" x2="\#(width - right)" y1="\#(y(limit))" y2="\#(y(limit))" stroke="rgb(85,85,85)" stroke-dasharray="6 4"/>"#)
        svg.append(#"<text x="\#(left + 6)" y="\#(y(limit) - 6)" fill="rgb(85,85,85)">limit \#(Int(limit)) ms</text>"#)
        for (index, (server, steps)) in runs.enumerated() {
            let colour = colours[index % colours.count]
            func points(_ value: (FanoutStep) -> Double) -> String {
                steps.map { String(format: "%.1f,%.1f", x(Double($0.clients)), y(value($0))) }.joined(separator: " ")
            }
            svg.append(#"<polyline fill="none" stroke="\#(colour)" stroke-width="2" points="\#(points { $0.latency.p95 })"/>"#)
            svg.append(#"<polyline fill="none" stroke="\#(colour)" stroke-width="1" stroke-dasharray="2 3" points="\#(points { $0.latency.p50 })"/>"#)
            svg.append(#"<text x="\#(width - right + 6)" y="\#(top + 20 + Double(index) * 18)" fill="\#(colour)">\#(server)</text>"#)
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }
}
