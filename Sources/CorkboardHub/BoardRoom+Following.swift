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
            self.announcedSeq = max(self.announcedSeq, seq)
            // A batch of this room's own is being written: it ends in success or a conflict,
            // and `batchFinished` catches up after either.
            guard self.announcedSeq > self.pipeline.durableSeq, self.pipeline.isIdle else { return }
            self.catchUp()
        }
    }

    /// The store reconnected and wake-ups may have been lost: read whatever is there.
    func checkStore() {
        perform {
            guard case .ready = self.readiness else { return }
            self.announcedSeq = max(self.announcedSeq, self.pipeline.durableSeq + 1)
            if self.pipeline.isIdle { self.catchUp() }
        }
    }

    /// Runs `work` once the room has read the store up to at least `seq` (a member resuming
    /// from a seq this room has not seen yet), or at once when it is there already.
    func afterCatchingUp(to seq: Int, _ work: @escaping () -> Void) {
        guard seq > pipeline.durableSeq else { return work() }
        afterCatchUp.append(work)
        announcedSeq = max(announcedSeq, seq)
        if pipeline.isIdle { catchUp() }
    }

    /// Reads and applies every event after the durable seq; then resolves `resolutions`
    /// (undone by a conflict) and releases what waited.
    func catchUp(thenResolve resolutions: [Resolution] = []) {
        guard !isCatchingUp else {
            // Already reading: the undone operations go first when it finishes.
            held.insert(contentsOf: resolutions.map { resolution in { self.resolve(resolution) } }, at: 0)
            return
        }
        isCatchingUp = true
        readEvents(then: resolutions)
    }

    private func readEvents(then resolutions: [Resolution]) {
        // Every commit announced before this read began is in what it returns.
        let announced = announcedSeq
        hub.store.events(board: id, after: pipeline.durableSeq, limit: Self.catchUpPage) { result in
            self.queue.async { self.eventsRead(result, announcedBefore: announced, then: resolutions) }
        }
    }

    func eventsRead(_ result: Result<[CommittedEvent], StoreError>, announcedBefore announced: Int, then resolutions: [Resolution]) {
        var readEverything = true
        switch result {
        case .success(let events):
            for event in events where event.seq == pipeline.durableSeq + 1 {
                do {
                    try engine.append(event)
                } catch {
                    return restart("event \(event.seq) from the store does not apply: \(error)", then: resolutions)
                }
                pipeline.follow(event)
                broadcastFollowed(event)
            }
            engine.protectHistory(after: pipeline.durableSeq)
            if events.count == Self.catchUpPage { return readEvents(then: resolutions) }
            // The store holds nothing more than what was read: an announcement (or a
            // reconnect's "maybe") from before the read is settled.
            if announcedSeq <= announced { announcedSeq = pipeline.durableSeq }
        case .failure(.pruned(let start)):
            // So far behind that the log no longer reaches back: only a fresh load helps.
            return restart("the log starts after \(start), this room is at \(pipeline.durableSeq)", then: resolutions)
        case .failure(let error):
            // The store is unreachable: what waits is resolved on the board as this room has
            // it; its batch is refused (`unavailable`) or conflicts and catches up again.
            hub.logger.warning("board \(id): cannot catch up with the store: \(error)")
            // No retry from here (it would spin while the store is down): the store's
            // `.resynchronize` once its connection is back, or the next conflict, tries again.
            readEverything = false
        }
        isCatchingUp = false
        for resolution in resolutions { resolve(resolution) }
        let waiting = afterCatchUp
        afterCatchUp = []
        for work in waiting { work() }
        releaseHeld()
        writeNextBatch()
        // Announced while this read was on its way.
        if readEverything && announcedSeq > pipeline.durableSeq && pipeline.isIdle { catchUp() }
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
    private func restart(_ reason: String, then resolutions: [Resolution]) {
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
                self.eventsRead(.success([]), announcedBefore: self.announcedSeq, then: resolutions)
            }
        }
    }
}
