import CPostgres

/// The hosts of a multi-host connection string, turned so that another one comes first.
///
/// libpq tries a string's hosts in order and moves on when one refuses, fails, or is not what
/// `target_session_attrs` asks for (a standby when it asks for `read-write`). It does not move
/// on from a host that answers nothing — a primary whose machine is gone — when connecting
/// asynchronously, as `PostgresConnection` does: `PQconnectPoll` leaves timeouts to the
/// application (`connect_timeout` applies to the blocking calls only). So that attempt runs
/// out of time on the first host, and an attempt that starts over from the same string waits on
/// it again: the standby behind it, promoted, would never be tried. After an attempt that ran
/// out of time the next starts at the host after the one it was waiting on
/// (`index(ofHost:port:)`, `overrides(startingAt:)`), around the list, so a silent host is
/// tried last.
///
/// Only when the string asks for a writable server (`target_session_attrs=read-write` or
/// `primary`, what a failover setup needs): otherwise libpq takes any server, and one slow
/// attempt on the primary would leave the next on a standby.
struct HostRotation: Sendable, Equatable {
    /// The string's comma-separated `host`, `hostaddr` and `port` lists (empty when not given,
    /// or when the string does not ask for a writable server).
    let hosts: [String]
    let hostAddresses: [String]
    let ports: [String]

    /// How many hosts the string names.
    var count: Int { max(hosts.count, hostAddresses.count) }

    /// Reads the lists as libpq does (a `postgres://` URL or `key=value` pairs); none when
    /// libpq cannot parse the string (connecting will then say why).
    init(connectionString: String) {
        var parsed: [String: [String]] = [:]
        if let options = PQconninfoParse(connectionString, nil) {
            defer { PQconninfoFree(options) }
            var option = options
            while let keyword = option.pointee.keyword {
                let name = String(cString: keyword)
                if ["host", "hostaddr", "port", "target_session_attrs"].contains(name), let value = option.pointee.val {
                    parsed[name] = String(cString: value).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                }
                option += 1
            }
        }
        let wantsWriter = ["read-write", "primary"].contains(parsed["target_session_attrs"]?.first ?? "")
        hosts = wantsWriter ? parsed["host"] ?? [] : []
        hostAddresses = wantsWriter ? parsed["hostaddr"] ?? [] : []
        ports = wantsWriter ? parsed["port"] ?? [] : []
    }

    /// Which host of the string `host` and `port` are (what libpq's `PQhost` and `PQport` say
    /// of an attempt in progress); nil when none is.
    func index(ofHost host: String, port: String) -> Int? {
        let names = hosts.isEmpty ? hostAddresses : hosts
        return names.indices.first { index in
            names[index] == host && (ports.count != names.count || ports[index] == port)
        }
    }

    /// Keywords and values that, given after the string, make host `offset` (modulo their
    /// number) the first one tried; none for a string of one host or none. A single port (or
    /// host address) applies to every host and stays as it is.
    func overrides(startingAt offset: Int) -> [(keyword: String, value: String)] {
        guard count > 1, offset % count != 0 else { return [] }
        let shift = offset % count
        func turned(_ list: [String]) -> String {
            (Array(list[shift...]) + Array(list[..<shift])).joined(separator: ",")
        }
        return [("host", hosts), ("hostaddr", hostAddresses), ("port", ports)]
            .filter { $0.1.count == count }
            .map { (keyword: $0.0, value: turned($0.1)) }
    }
}
