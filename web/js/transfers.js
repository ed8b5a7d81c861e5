// @ts-check
// Cards dragged from another board of this server and dropped here move here: an `insert` on
// this board, then a `delete` on the other (POST /api/boards/{id}/ops), each with an opId made
// of the drag's id, so that sending either again (a lost answer, a reload in between) never
// applies it twice. The plan is kept in localStorage from the drop until both are done, and
// the next page of this board to open finishes it. Holding Alt (a "copy" drop) skips the delete.
//
// Nothing is lost either way: the delete goes only once the insert has committed; a delete
// the other board refuses for good (locked, forbidden, gone from the server) leaves the cards
// on both boards, and the page says so; one it cannot make now (network, busy, rate-limited)
// is tried again a few times, then at the next page of this board.

import { findItem } from "../sdk/replica.js";
import { withToken } from "./people.js";

/** @typedef {import("./drag-out.js").CardPayload} CardPayload */
/** @typedef {import("../sdk/replica.js").Board} Board */
/** @typedef {import("../sdk/replica.js").Item} Item */
/** @typedef {import("../sdk/replica.js").Destination} Destination */
/** @typedef {import("../sdk/live.js").LiveBoard} LiveBoard */
/**
 * One move from board `from` to board `to`: the items as inserted here (`items`, their ids
 * possibly changed), the ids to delete there (`remove`), and where they land.
 * @typedef {{ drag: string, from: string, to: string, items: Item[], remove: string[], destination: Destination,
 *   copy: boolean }} TransferPlan
 */
/**
 * What a transfer needs of the page: the live board, its token, the two voices.
 * @typedef {{ session: LiveBoard, token: string | null, notices: { show(text: string): void },
 *   announcer: { say(text: string): void } }} TransferParts
 */

const STORAGE_KEY = "corkboard.transfers";
/** Tries of a delete the other board cannot take now, before leaving it to the next page. */
const DELETE_TRIES = 5;
const RETRY_MS = 1_000;

/**
 * The plan for a drop of `payload` on `board` before `destination`. A card keeps its id
 * unless this board has an item of that id; then it gets one made of the id and the drag's
 * (the same on every try: the plan keeps it).
 * @param {CardPayload} payload
 * @param {Board} board
 * @param {Destination} destination
 * @param {boolean} copy
 * @returns {TransferPlan}
 */
export function transferPlan(payload, board, destination, copy) {
  const items = payload.items.map((item) => {
    const id = findItem(board, item.id) ? `${item.id}~${payload.drag}`.slice(-128) : item.id;
    return item.data ? { id, label: item.label, data: item.data } : { id, label: item.label };
  });
  return { drag: payload.drag, from: payload.board, to: board.id, items, remove: payload.items.map((i) => i.id), destination, copy };
}

/** The opIds of a transfer's two steps. */
export const insertOpId = (/** @type {TransferPlan} */ plan) => `${plan.drag}:in`;
export const deleteOpId = (/** @type {TransferPlan} */ plan) => `${plan.drag}:out`;

/**
 * The plans kept in `storage`, by drag id.
 * @param {Storage | null} storage
 * @returns {{ [drag: string]: TransferPlan }}
 */
export function keptPlans(storage) {
  try {
    const kept = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/**
 * @param {Storage | null} storage
 * @param {TransferPlan} plan
 * @param {boolean} keep false: forget it
 */
export function keepPlan(storage, plan, keep) {
  const plans = keptPlans(storage);
  if (keep) plans[plan.drag] = plan;
  else delete plans[plan.drag];
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(plans));
  } catch {
    // Storage full or off: the move still goes on, it just cannot be finished by another page.
  }
}

export class Transfers {
  /**
   * @param {TransferParts} parts
   * @param {Storage | null} storage
   */
  constructor({ session, token, notices, announcer }, storage) {
    this.session = session;
    this.token = token;
    this.notices = notices;
    this.announcer = announcer;
    this.storage = storage;
    /** Drags being carried out by this page (a resume must not start them twice). @type {Set<string>} */
    this.running = new Set();
  }

  /**
   * Moves (or copies) the dropped cards here.
   * @param {TransferPlan} plan
   */
  start(plan) {
    keepPlan(this.storage, plan, true);
    return this.run(plan);
  }

  /** Finishes the plans for this board that an earlier page left: call once the board is shown. */
  resume() {
    const board = this.session.board;
    if (!board) return;
    for (const plan of Object.values(keptPlans(this.storage))) {
      if (plan.to === board.id && !this.running.has(plan.drag)) this.run(plan);
    }
  }

  /** @param {TransferPlan} plan */
  async run(plan) {
    this.running.add(plan.drag);
    try {
      if (!(await this.inserted(plan))) return keepPlan(this.storage, plan, false);
      if (!plan.copy) await this.removeAtSource(plan);
      else keepPlan(this.storage, plan, false);
    } finally {
      this.running.delete(plan.drag);
    }
  }

  /**
   * The insert, sent (again: the same opId is answered, not applied twice) unless the cards
   * are here already or it still waits for its answer from an earlier page. False when it was
   * refused: nothing moved.
   * @param {TransferPlan} plan
   * @returns {Promise<boolean>}
   */
  async inserted(plan) {
    const here = () => {
      const board = this.session.board;
      return board !== null && plan.items.every((item) => findItem(board, item.id));
    };
    if (here()) return true;
    if (this.session.isPending(insertOpId(plan))) {
      // Sent by an earlier page: its answer comes as a board change, or as its absence.
      return new Promise((resolve) => {
        const check = () => {
          if (!here() && this.session.isPending(insertOpId(plan))) return;
          this.session.removeEventListener("board", check);
          resolve(here());
        };
        this.session.addEventListener("board", check);
      });
    }
    try {
      await this.session.insert(plan.items, plan.destination, { opId: insertOpId(plan), undoable: false });
      return true;
    } catch (refusal) {
      this.notices.show(`Nothing was moved: ${/** @type {Error} */ (refusal).message}.`);
      return false;
    }
  }

  /** @param {TransferPlan} plan */
  async removeAtSource(plan) {
    const what = plan.items.length === 1 ? `“${plan.items[0].label}”` : `${plan.items.length} cards`;
    for (let attempt = 1; attempt <= DELETE_TRIES; attempt += 1) {
      const answer = await this.deleteAtSource(plan);
      if (answer === "done") {
        keepPlan(this.storage, plan, false);
        this.announcer.say(`Moved ${what} here from board ${plan.from}.`);
        return;
      }
      if (answer !== "later") {
        keepPlan(this.storage, plan, false);
        this.notices.show(`${what} ${plan.items.length === 1 ? "is" : "are"} now on this board and still on board ${plan.from}: it refused to let go of ${plan.items.length === 1 ? "it" : "them"} (${answer}).`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS * attempt));
    }
    this.notices.show(`${what} ${plan.items.length === 1 ? "is" : "are"} on this board, and not yet off board ${plan.from}: this will be tried again when the board opens.`);
  }

  /**
   * The delete on the other board: "done" (deleted, or gone already), "later" (cannot now),
   * or why it never will.
   * @param {TransferPlan} plan
   * @returns {Promise<string>}
   */
  async deleteAtSource(plan) {
    try {
      const response = await fetch(`/api/boards/${encodeURIComponent(plan.from)}/ops`, {
        method: "POST",
        headers: withToken({ "Content-Type": "application/json" }, this.token),
        // baseSeq 0 is below every board's seq; a delete does not read the past.
        body: JSON.stringify({ type: "delete", opId: deleteOpId(plan), baseSeq: 0, items: plan.remove }),
      });
      if (response.ok) return "done";
      const body = await response.json().catch(() => ({}));
      if (body.code === "gone") return "done";
      if (body.code === "busy" || response.status === 429 || response.status >= 500) return "later";
      return body.message ?? body.code ?? `HTTP ${response.status}`;
    } catch {
      return "later";
    }
  }
}
