import Sockets
import Testing

@Suite struct ConnectionAdmissionTests {
    let local = try! SocketAddress.resolve(host: "127.0.0.1", port: 1000).first!
    let remote = try! SocketAddress.resolve(host: "192.0.2.7", port: 1000).first!
    let otherRemote = try! SocketAddress.resolve(host: "2001:db8::7", port: 1000).first!

    @Test func theTotalLimitCountsEveryone() {
        let admission = ConnectionAdmission(AdmissionLimits(maxConnections: 2))
        #expect(admission.admit(local) == nil)
        #expect(admission.admit(remote) == nil)
        #expect(admission.admit(local) == .serverFull(limit: 2))
        admission.release(remote)
        #expect(admission.admit(otherRemote) == nil)
        // The released one was counted out, the new one in: full again.
        #expect(admission.admit(remote) == .serverFull(limit: 2))
    }

    @Test func thePerAddressLimitSparesLoopbackAndForgetsAddressesThatLeft() {
        let admission = ConnectionAdmission(AdmissionLimits(maxConnectionsPerAddress: 2))
        for _ in 0..<100 { #expect(admission.admit(local) == nil) }
        #expect(admission.admit(remote) == nil)
        #expect(admission.admit(remote) == nil)
        #expect(admission.admit(remote) == .addressFull(limit: 2))
        #expect(admission.admit(otherRemote) == nil)
        admission.release(remote)
        #expect(admission.admit(remote) == nil)
    }

    @Test func loopbackCanBeCountedWhenAsked() {
        var limits = AdmissionLimits(maxConnectionsPerAddress: 1)
        limits.exemptsLoopback = false
        let admission = ConnectionAdmission(limits)
        #expect(admission.admit(local) == nil)
        #expect(admission.admit(local) == .addressFull(limit: 1))
    }

    @Test func noLimitsAdmitEverything() {
        let admission = ConnectionAdmission(AdmissionLimits())
        for _ in 0..<1000 { #expect(admission.admit(remote) == nil) }
    }
}
