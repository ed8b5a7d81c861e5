import Testing

@testable import CorkboardPostgres

/// Which host a connection attempt starts at, read from the string as libpq reads it.
@Suite struct HostRotationTests {
    static let threeHosts = "postgresql://corkboard@db1:5432,db2:5433,db3:5434/corkboard?target_session_attrs=read-write"

    @Test func aURLsHostsAndPortsTurnTogether() {
        let rotation = HostRotation(connectionString: Self.threeHosts)
        #expect(rotation.hosts == ["db1", "db2", "db3"] && rotation.ports == ["5432", "5433", "5434"])
        #expect(rotation.overrides(startingAt: 0).isEmpty)
        #expect(rotation.overrides(startingAt: 1).map { "\($0.keyword)=\($0.value)" } == ["host=db2,db3,db1", "port=5433,5434,5432"])
        #expect(rotation.overrides(startingAt: 2).map { "\($0.keyword)=\($0.value)" } == ["host=db3,db1,db2", "port=5434,5432,5433"])
        // Around the list.
        #expect(rotation.overrides(startingAt: 3).isEmpty)
        #expect(rotation.overrides(startingAt: 4).map(\.value) == rotation.overrides(startingAt: 1).map(\.value))
    }

    /// The next attempt starts after the host the last one waited on: a silent host goes last.
    @Test func theHostAnAttemptWaitedOnIsFoundByNameAndPort() {
        let rotation = HostRotation(connectionString: "postgresql://u@127.0.0.1:7001,127.0.0.1:7002,db3:7003/d?target_session_attrs=primary")
        #expect(rotation.index(ofHost: "127.0.0.1", port: "7002") == 1)
        #expect(rotation.index(ofHost: "db3", port: "7003") == 2)
        #expect(rotation.index(ofHost: "db3", port: "9999") == nil)
        #expect(rotation.index(ofHost: "elsewhere", port: "7001") == nil)
    }

    @Test func oneGivenPortAppliesToEveryHostAndStays() {
        let rotation = HostRotation(connectionString: "host=db1,db2 port=5432 dbname=corkboard target_session_attrs=read-write")
        #expect(rotation.overrides(startingAt: 1).map { "\($0.keyword)=\($0.value)" } == ["host=db2,db1"])
        #expect(rotation.index(ofHost: "db2", port: "5432") == 1)
    }

    /// Without a demand for a writable server libpq takes any: turning the list could leave
    /// the writer on a standby.
    @Test func aStringThatTakesAnyServerIsLeftAsItIs() {
        #expect(HostRotation(connectionString: "postgresql://corkboard@db1:5432,db2:5432/corkboard").overrides(startingAt: 1).isEmpty)
        #expect(HostRotation(connectionString: "postgresql://corkboard@db1,db2/corkboard?target_session_attrs=any").count == 0)
    }

    @Test func oneHostOrAnUnreadableStringIsLeftAsItIs() {
        #expect(HostRotation(connectionString: "postgres://corkboard@db1:5432/corkboard?target_session_attrs=read-write").overrides(startingAt: 1).isEmpty)
        #expect(HostRotation(connectionString: "host='unclosed").count == 0)
    }
}
