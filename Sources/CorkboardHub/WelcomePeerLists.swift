import CorkboardWire

/// The `welcome` peers a room keeps (BoardRoom+Welcome.swift): the list written for the
/// roster's `version`, reused by every join until the roster changes. Only a list without
/// drags is kept (the room asks for a fresh one while anybody drags: a drag's placeholder
/// moves twenty times a second). A part of its `BoardRoom`, held by `let` and used only on
/// the room's queue.
final class WelcomePeerLists {
    private var written: (version: Int, peers: EncodedPeerList)?

    /// The peers at roster `version`: the kept ones, if of it, else `write`'s, kept instead.
    func peers(version: Int, write: () -> EncodedPeerList) -> EncodedPeerList {
        if let written, written.version == version { return written.peers }
        let peers = write()
        written = (version, peers)
        return peers
    }
}
