import CorkboardModel
import CorkboardStore
import CorkboardWire

/// Following other nodes that share the store (PostgreSQL): their commits reach this room as
/// wake-ups carrying only `(board, seq)`; the room then reads every event after its own
/// durable seq from the store, applies them in order, and sends them to its members like
/// its own. Correctness never rests on a wake-up: a `.conflict` from the store, a resume
/// beyond the room's seq, and a reconnect of the store all make the room catch up too.
///
/// The room reads only between its own batches (nothing of its own is on its way to the
/// store), so followed events and its own always form one gapless sequence. Operations that
/// arrive meanwhile wait (`held`), and those a conflict undid are resolved anew afterwards,
/// on the board as it now is.
extension BoardRoom {
    /// Events read from the store per round trip while catching up.
    static let catchUpPage = 512

    /// Another node made the board durable up to `seq` (or, for `Int.max`, may have: the
    /// store reconnected). Does nothing when the room is there already.
    func follow(upTo seq: Int) {
        perform {
            guard case .ready = self.readiness else { return }
            // A batch of this room's own is being written: it ends in success or a conflict,
            // and `batchFinished` catches up after either.
            self.run(self.following.announced(seq, durableSeq: self.pipeline.durableSeq, writing: !self.pipeline.isIdle))
        }
    }

    /// The store reconnected and wake-ups may have been lost: read whatever is there.
    func checkStore() {
        perform {
            guard case .ready = self.readiness else { return }
            self.run(self.following.storeReconnected(durableSeq: self.pipeline.durableSeq, writing: !self.pipeline.isIdle))
        }
    }

    /// Runs `work` once the room has read the store up to at least `seq` (a member resuming
    /// from a seq this room has not seen yet), or at once when it is there already.
    func afterCatchingUp(to seq: Int, _ work: @escaping () -> Void) {
        switch following.admit(work, reaching: seq, durableSeq: pipeline.durableSeq, writing: !pipeline.isIdle) {
        case .runNow(let work): work()
        case .waits(let action): run(action)
        }
    }

    /// Another node extended the board first: the room reads what it committed, then
    /// resolves `resolutions` (undone by the conflict) anew, then what waited.
    func catchUp(afterConflictAt seq: Int, thenResolve resolutions: [Resolution]) {
        let redo = resolutions.map { resolution in { self.resolve(resolution) } }
        guard let action = following.conflicted(at: seq, durableSeq: pipeline.durableSeq, redo: redo) else {
            // Already reading: the undone operations go first when it finishes.
            return holdFirst(redo)
        }
        run(action)
    }

    /// This room's own batch finished: others committed meanwhile, or someone waits for the
    /// store to be read, and now nothing of its own is on its way.
    func catchUpAfterOwnBatch() {
        run(following.ownBatchFinished(durableSeq: pipeline.durableSeq, writing: !pipeline.isIdle))
    }

    private func run(_ action: StoreFollowing<() -> Void>.Action) {
        guard case .read(let after) = action else { return }
        hub.store.events(board: id, after: after, limit: Self.catchUpPage) { result in
            self.queue.async { self.eventsRead(result) }
        }
    }

    func eventsRead(_ result: Result<[CommittedEvent], StoreError>) {
        var readEverything = true
        switch result {
        case .success(let events):
            for event in events where event.seq == pipeline.durableSeq + 1 {
                do {
                    try applyFollowed(event)
                } catch {
                    return restart("event \(event.seq) from the store does not apply: \(error)")
                }
                broadcastFollowed(event)
            }
            protectDurableHistory()
            let next = following.pageRead(count: events.count, pageSize: Self.catchUpPage, durableSeq: pipeline.durableSeq)
            guard next == .none else { return run(next) }
        case .failure(.pruned(let start)):
            // So far behind that the log no longer reaches back: only a fresh load helps.
            return restart("the log starts after \(start), this room is at \(pipeline.durableSeq)")
        case .failure(let error):
            // The store is unreachable: what waits is resolved on the board as this room has
            // it; its batch is refused (`unavailable`) or conflicts and catches up again.
            hub.logger.warning("board \(id): cannot catch up with the store: \(error)")
            // No retry from here (it would spin while the store is down): the store's
            // `.resynchronize` once its connection is back, or the next conflict, tries again.
            readEverything = false
        }
        finishCatchingUp(readEverything: readEverything)
    }

    /// Runs what waited for the read: the operations a conflict undid, then the work that
    /// waited for a seq, then the held operations; and reads again if others announced more
    /// while this read was on its way.
    private func finishCatchingUp(readEverything: Bool) {
        for work in following.finishReading() { work() }
        releaseHeld()
        writeNextBatch()
        if readEverything { run(following.readAgainIfBehind(durableSeq: pipeline.durableSeq, writing: !pipeline.isIdle)) }
    }

    private func resolve(_ resolution: Resolution) {
        resolve(
            resolution.request, client: resolution.client, author: resolution.author, role: resolution.role, target: resolution.target)
    }

    /// A followed event goes to every live member, as this room's own do, and ends the drags
    /// it ends (a delete).
    private func broadcastFollowed(_ event: CommittedEvent) {
        hub.metrics.followed.increment()
        liveLinks.broadcast(WireText.encode(.committed(event)))
        clearDrags(after: event, from: .elsewhere)
    }

    /// The room cannot follow the store any more (its log was pruned past this room's seq,
    /// or an event does not apply): it loads the board afresh, and its members are closed
    /// with 1012 to join again, since what they missed is no longer in the log. What waits
    /// is resolved on the reloaded board.
    private func restart(_ reason: String) {
        hub.logger.error("board \(id): reloading from the store: \(reason)")
        for (key, member) in members {
            remove(key)
            member.link.close(.serviceRestart, reason: "the board is reloading; join again")
        }
        hub.store.loadBoard(id, historyLimit: hub.configuration.historyCapacity) { result in
            self.queue.async {
                switch result {
                case .success(let stored?):
                    do {
                        try self.install(stored)
                    } catch {
                        self.hub.logger.error("board \(self.id) cannot be rebuilt from the store: \(error)")
                    }
                case .success(nil), .failure:
                    // Left as it was: the next batch conflicts or fails, and tries again.
                    self.hub.logger.error("board \(self.id) could not be reloaded: \(result)")
                }
                self.following.reloaded(seq: self.pipeline.durableSeq)
                self.finishCatchingUp(readEverything: true)
            }
        }
    }
}
