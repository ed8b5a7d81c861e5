extension BoardClient {
    /// Drops the TCP connection without a close frame, as a network failure does; the client
    /// then reconnects and resumes as after a real failure. Only tests reach it (`@_spi(Testing)
    /// import`): an application has no reason to break its own connection.
    @_spi(Testing) public func dropConnection() {
        core.loop.execute { self.core.dropConnection() }
    }
}
