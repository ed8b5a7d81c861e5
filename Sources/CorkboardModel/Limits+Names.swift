/// The bound on the names people and tokens go by (docs/protocol.md#3-joining).
///
/// A name is copied where one message costs many: into every `peer.joined`, `peers` tick,
/// `welcome.peers` and `peers.page` entry, every `drag`, and (as `by`) into every committed
/// event, its broadcast to every member, the history and the store's log. The 16 KiB of a
/// label let 200 peers of maximal names make a 3 MB `peers.page` out of a 40-byte request
/// (issue #31); at 256 bytes a name is longer than any real one and costs a member at most
/// a few hundred bytes per announcement.
extension Limits {
    /// Names (`hello.name`, a signed token's `name` and `sub`, a token-file grant's `name`) are
    /// at most this many bytes of UTF-8; a longer one is refused, never cut.
    public static let maximumNameBytes = 256

    /// True for a name of at most `maximumNameBytes` bytes of UTF-8 without NUL (empty is
    /// allowed, as before).
    public static func isValidName(_ name: String) -> Bool {
        nameProblem(name) == nil
    }

    /// Why a name is refused (to follow what it is in a message); nil when it fits. NUL as
    /// in `textProblem`: a name is stored with every event its holder commits.
    public static func nameProblem(_ name: String) -> String? {
        problem(of: name, within: maximumNameBytes)
    }
}
