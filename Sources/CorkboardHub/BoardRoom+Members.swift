import CorkboardModel
import CorkboardWire
import Foundation

/// A client joined to a room.
/// A reference, not a value: the room's member table then holds 8 bytes an entry, and a
/// broadcast walking it copies nothing. Confined to the room's queue like the table.
final class Member {
    let client: ClientID
    let name: String
    /// What its commits carry as `by` (`TokenHolder.author(named:)`).
    let author: String
    let role: Role
    /// Follows the board without being a peer (`hello` with `"observe": true`, or an event
    /// stream): never listed in `peers`, `peer.joined` or `peer.left`.
    let observes: Bool
    /// The form of `drags` batches it asked for in `hello` (docs/protocol.md#compact-drags).
    let presence: PresenceForm
    /// The token it joined with, or the one it refreshed to since (`token`): checked again
    /// when the token file is reloaded or revocations change.
    var token: String?
    /// Its connection.
    let link: any MemberLink
    /// Join order (the drag batch skips what was told before a member joined).
    let order: Int
    /// Its entry in the room's `PeerRoster` (an observer has none).
    var listing: ListedPeer?
    /// While a resume is being replayed: the last seq sent. Nil once the member is live,
    /// that is, receives broadcasts.
    var replayedThrough: Int?
    /// Messages that came while it was replaying (answers to its own operations, presence):
    /// sent after the replay, so nothing overtakes it (a repeat of an event not replayed yet).
    var held: [String] = []
    /// Its drag, editing mark and presence waiting for a lease, made at the first of them
    /// (`drag`, `editing`, `presenceWaiting`: MemberActivity.swift).
    var activity: MemberActivity?

    var isLive: Bool { replayedThrough == nil }

    /// Who holds its drags, for the cool-down after one expires (`LeaseCooldowns`): this
    /// connection, the token it joined with (a reconnection with it is the same holder), and
    /// the `by` a token names (a signed token's `sub`, which outlives a refreshed token). Not
    /// a `by` that is only the name said in `hello`: anyone may say it.
    var leaseHolders: Set<String> {
        var holders: Set<String> = ["client " + client]
        if let token { holders.insert("token " + token) }
        if author != name { holders.insert("by " + author) }
        return holders
    }

    init(
        client: ClientID, name: String, author: String, role: Role, observes: Bool, presence: PresenceForm, token: String?,
        link: any MemberLink, order: Int
    ) {
        self.client = client
        self.name = name
        self.author = author
        self.role = role
        self.observes = observes
        self.presence = presence
        self.token = token
        self.link = link
        self.order = order
    }
}

/// Joining, resuming and leaving (docs/protocol.md#3-joining). All on the room's queue, so a
/// member is registered, replayed and switched to live traffic without a gap or a repeat:
/// broadcasts skip a member still replaying, and the replay reads up to the durable seq at
/// each step.
extension BoardRoom {
    /// `resumingAnyEpoch`: `hello.resume` names a seq of whichever epoch the board is in now
    /// (an event stream's `Last-Event-ID` is a bare seq).
    func join(_ key: MemberKey, link: any MemberLink, hello: Hello, role: Role, resumingAnyEpoch: Bool = false) {
        perform {
            var hello = hello
            if resumingAnyEpoch, hello.resume != nil { hello.resume?.epoch = self.epoch }
            switch self.readiness {
            case .missing:
                Self.refuse(link, .notFound, "there is no board \"\(hello.board)\"", close: .policyViolation)
            case .failed(let reason):
                Self.refuse(link, ErrorCode(rawValue: "unavailable"), "the board cannot be loaded now: \(reason)", close: .tryAgainLater)
            case .ready:
                // Resuming from a seq this node has not seen (it was on another node): read
                // the store up to it first, so the resume is a replay and not a snapshot.
                if let resume = hello.resume, resume.epoch == self.epoch, resume.seq > self.pipeline.durableSeq {
                    self.members.awaitJoin(of: key)
                    self.afterCatchingUp(to: resume.seq) {
                        // Gone while the room read the store: nobody to admit.
                        guard self.members.stopAwaitingJoin(of: key) else { return }
                        self.admit(key, link: link, hello: hello, role: role)
                    }
                } else {
                    self.admit(key, link: link, hello: hello, role: role)
                }
            }
        }
    }

    private func admit(_ key: MemberKey, link: any MemberLink, hello: Hello, role: Role) {
        guard members[key] == nil else { return }
        // Judged again here, on the room's queue: a token revoked while this join was on its
        // way is refused, as `recheckAccess` would have disconnected it.
        guard let holder = hub.access.judge(token: hello.token, checkingLifetime: false).holder, holder.role(on: id) == role else {
            return Self.refuse(link, .forbidden, "the token is not valid for board \"\(id)\" (any more)", close: .policyViolation)
        }
        hub.metrics.members.increment()
        let client = hub.nextClientID()
        let peers = welcomePeers()
        let count = membership.roster.count + (hello.observe ? 0 : 1)
        let durable = pipeline.durableSeq
        let order = membership.nextJoinOrder()
        let member = Member(
            client: client, name: hello.name, author: holder.author(named: hello.name), role: role, observes: hello.observe,
            presence: hello.presence, token: hello.token, link: link, order: order)
        // An observer is told what it may do: read, as a viewer, whatever its token grants.
        let shownRole = hello.observe ? Role.viewer : role
        let tokenExpiresAt = holder.expires.map(Self.milliseconds)
        if let resume = hello.resume, resume.epoch == epoch, resume.seq <= durable, resume.seq >= engine.oldestReachableSeq {
            let welcome = Welcome(
                client: client, role: shownRole, epoch: epoch, seq: resume.seq, resumed: true, board: nil, peers: [], count: count,
                tokenExpiresAt: tokenExpiresAt, name: hello.name, hue: hello.hue)
            link.send(utf8: welcome.bytes(board: nil, peers: peers))
            member.replayedThrough = resume.seq
            members.admit(member, as: key)
            replay(key)
        } else {
            link.send(
                utf8: snapshotWelcome(
                    client: client, name: hello.name, hue: hello.hue, role: shownRole, peers: peers, count: count, tokenExpiresAt: tokenExpiresAt))
            members.admit(member, as: key)
        }
        showRemoteDrags(to: key)
        showEditingMarks(to: key)
        if !member.observes {
            let listing = ListedPeer(client: client, name: hello.name, hue: hello.hue, order: order, member: member)
            member.listing = listing
            listJoin(of: listing, except: key)
            shareJoin(of: listing)
        }
        hub.logger.debug("board \(id): \(client) (\(hello.name)) joined as \(role.rawValue)\(member.observes ? ", observing" : "")")
    }

    /// Sends the next piece of a resume replay; the piece after it waits until the link
    /// has written this one, so a long replay never overflows the member's output bound.
    /// A piece ends after `replayChunk` events or half the output bound in bytes, whichever
    /// comes first (events carry up to 16 KiB labels and data). When the replay reaches the
    /// durable seq, the member turns live.
    func replay(_ key: MemberKey) {
        guard let member = members[key], let cursor = member.replayedThrough else { return }
        guard let events = engine.events(after: cursor, through: min(cursor + hub.configuration.replayChunk, pipeline.durableSeq)) else {
            // The history window slid past the replay (a very slow reader on a very busy
            // board): it has to start again from a snapshot.
            remove(key)
            Self.refuse(member.link, .invalid, "the resume fell behind the kept history; reconnect", close: .tryAgainLater)
            return
        }
        let byteBudget = member.link.outputBound / 2
        var (last, bytes) = (cursor, 0)
        for event in events where bytes < byteBudget {
            let text = WireText.encode(.committed(event))
            member.link.send(text: text)
            (last, bytes) = (event.seq, bytes + text.utf8.count)
        }
        if last == pipeline.durableSeq {
            members.turnLive(member)
            for text in member.held { member.link.send(text: text) }
            member.held = []
        } else {
            member.replayedThrough = last
            member.link.whenDrained { self.queue.async { self.replay(key) } }
        }
    }

    /// After the access policy changed: a member whose token no longer grants anything here
    /// is refused as at `hello` (`error` `forbidden`, close 1008); one whose role changed is
    /// closed with 1012 and joins again with its new role. Either leaves the room at once, so
    /// nothing it sends from now on is taken.
    func recheckAccess() {
        perform {
            for (key, member) in self.members {
                let role = self.hub.access.judge(token: member.token, checkingLifetime: false).holder?.role(on: self.id)
                guard role != member.role else { continue }
                self.remove(key)
                if let role {
                    member.link.close(.serviceRestart, reason: "your role changed to \(role.rawValue); join again")
                } else {
                    Self.refuse(member.link, .forbidden, "the token was revoked", close: .policyViolation)
                }
            }
        }
    }

    /// The member refreshed its token (`HubSession` judged the new one): a later recheck
    /// judges that one.
    func replaceToken(of key: MemberKey, with token: String) {
        perform { self.members[key]?.token = token }
    }

    /// A date as the wire's milliseconds since 1970.
    static func milliseconds(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    func leave(_ key: MemberKey) {
        perform {
            self.members.stopAwaitingJoin(of: key)
            self.remove(key)
        }
    }

    /// Takes a member out of the room: its drag cleared first, then its leave told the others.
    func remove(_ key: MemberKey) {
        clearDrag(of: key, .left)
        clearEditing(of: key)
        guard let member = members.remove(key) else { return }
        hub.metrics.members.decrement()
        if let listing = member.listing {
            listLeave(of: listing, except: key)
            shareLeave(of: listing)
        }
        hub.logger.debug("board \(id): \(member.client) left")
    }

    /// An answer to one member's own operation: now, or after its replay.
    func reply(_ text: String, to key: MemberKey) {
        guard let member = members[key] else { return }
        if member.isLive {
            member.link.send(text: text)
        } else {
            member.held.append(text)
        }
    }

    /// Presence to every member but one (`nil`: to all), encoded once; held for members
    /// still replaying.
    func sendToOthers(of key: MemberKey?, _ message: ServerMessage) {
        // Drag changes waiting for the tick go first: a `drag.cleared` `left` precedes its `peer.left`.
        flushDragBatch()
        let text = WireText.encode(message)
        var live: [any MemberLink] = []
        for (other, member) in members where other != key {
            if member.isLive { live.append(member.link) } else { member.held.append(text) }
        }
        live.broadcast(text)
    }

    /// Sends `error` and closes the connection (docs/protocol.md#refusals-of-hello).
    static func refuse(_ link: any MemberLink, _ code: ErrorCode, _ message: String, close: MemberClose) {
        link.send(.error(ErrorMessage(code: code, message: message)))
        link.close(close, reason: message.utf8.count <= 120 ? message : "")
    }
}
