import Testing

@testable import CorkboardPostgres

/// Which host a connection attempt starts at, read from the string as libpq reads it.
@Suite struct HostRotationTests {
    @Test func aURLsHostsAndPortsTurnTogether() {
        let rotation = HostRotation(connectionString: "postgresql://corkboard@db1:5432,db2:5433,db3:5434/corkboard?target_session_attrs=read-write")
        #expect(rotation.hosts == ["db1", "db2", "db3"] && rotation.ports == ["5432", "5433", "5434"])
        #expect(rotation.overrides(startingAt: 0).isEmpty)
        #expect(rotation.overrides(startingAt: 1).map { "\($0.keyword)=\($0.value)" } == ["host=db2,db3,db1", "port=5433,5434,5432"])
        #expect(rotation.overrides(startingAt: 2).map { "\($0.keyword)=\($0.value)" } == ["host=db3,db1,db2", "port=5434,5432,5433"])
        // Around the list.
        #expect(rotation.overrides(startingAt: 3).isEmpty)
        #expect(rotation.overrides(startingAt: 4).map(\.value) == rotation.overrides(startingAt: 1).map(\.value))
    }

    @Test func oneGivenPortAppliesToEveryHostAndStays() {
        let rotation = HostRotation(connectionString: "host=db1,db2 port=5432 dbname=corkboard")
        #expect(rotation.overrides(startingAt: 1).map { "\($0.keyword)=\($0.value)" } == ["host=db2,db1"])
    }

    @Test func oneHostOrAnUnreadableStringIsLeftAsItIs() {
        #expect(HostRotation(connectionString: "postgres://corkboard@db1:5432/corkboard").overrides(startingAt: 1).isEmpty)
        #expect(HostRotation(connectionString: "host='unclosed").count == 0)
    }
}
