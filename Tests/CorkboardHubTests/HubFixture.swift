import HubTestSupport

/// The in-process suites' name for their fixture: a `MemoryHub` (Tests/HubTestSupport, where the
/// hub suites that run over both harnesses reach it too).
typealias HubFixture = MemoryHub
