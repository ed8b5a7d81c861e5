// @ts-check
// The drag engine: picking items up and carrying them among lists, by pointer (mouse, pen,
// and touch with a press-and-hold, through Pointer Events: the HTML5 drag API does not work
// on touch screens) and by keyboard, for liveList and for the board page alike. It owns the
// gestures and what a drag looks like on this page (the avatar under the pointer, the
// placeholder where a release would land, the carried items hidden or, by keyboard, moved
// themselves, the scrolling near edges, Escape); the host says what the lists are (which
// element is an item, where a point lands, where a place is drawn), whether a pick-up may
// happen, and does the rest through the callbacks (presence, the move, announcements).
//
// Items can be any elements (cards, songs, columns): a host names them by id. Several lists,
// lists inside items (a folder's cards), windowed lists (only some items drawn: the host's
// `slotAt` and `nodeAt` know) and a drop into an item (`DragSlot.into`) are the host's to say.
//
// A release away from every list cancels, and says so (`cancel` with "off the lists").

import { DropAim } from "./drag-aim.js";
import { boundedStep, edgeStep, pacedStep, wheelScroll } from "./drag-geometry.js";
import { keyStep } from "./drag-keys.js";
import { HOLD_MS, PressGesture } from "./drag-press.js";

/** @typedef {import("./drag-aim.js").DragPlace} DragPlace */
/** @typedef {import("./drag-aim.js").DragSlot} DragSlot */
/**
 * A drag in progress, as the host's callbacks see it: what is carried (`ids`; `id` and
 * `element`, the one pressed or focused), how, from where (`origin`), where a release would land now
 * (`place`; null: off every list, a release cancels) and the item it would go into (`into`).
 * @typedef {{ id: string, ids: string[], element: HTMLElement, mode: "pointer" | "keyboard", origin: DragPlace,
 *   place: DragPlace | null, into: string | null }} Drag
 */
/**
 * Why a drag ended without a drop: Escape, Tab, a release off every list, the pointer taken
 * away by the browser, a press while the keyboard carried it, the list it was over no longer
 * drawn, or the host (`destroy`).
 * @typedef {"escape" | "tab" | "off the lists" | "pointer lost" | "pointer" | "list gone" | "host"} CancelReason
 */
/**
 * What the engine asks of the page that uses it.
 * @typedef {object} DragHost
 * @property {(target: Element, event: PointerEvent) => { element: HTMLElement, id: string, handle: boolean } | null} pressable
 *   the item a press on `target` would pick up (`handle`: on its handle, so a finger lifts it
 *   at once), or null: not one of ours (the browser, or the host's selection clicks, keep the press)
 * @property {(element: HTMLElement) => string | null} keyItem the id of the item `element` is
 *   when a key is pressed on it (null: keys there are not ours)
 * @property {(id: string, mode: "pointer" | "keyboard") => string[]} carried the ids a pick-up
 *   of `id` carries (a selection it is in), in the order the move takes them; by keyboard,
 *   only `id`
 * @property {(ids: string[]) => string | null} refusal why these may not move now, in words;
 *   null when they may (asked again after every `restore`)
 * @property {(id: string) => DragPlace | null} placeOf where an item is, in its list with the
 *   carried items left out
 * @property {(id: string) => HTMLElement | null} elementOf an item's element, when it is drawn
 * @property {(x: number, y: number, carried: Set<string>) => DragSlot | null} slotAt where a
 *   release at (x, y) would land; null: off every list
 * @property {(place: DragPlace, carried: Set<string>) => { parent: Node, next: Node | null } | null} nodeAt
 *   where a place is drawn: the node the placeholder (or an item carried by keyboard) goes
 *   before, in `parent`; null when the list is no longer drawn (the drag is cancelled)
 * @property {(x: number, y: number) => Element[]} scrollersAt the boxes that scroll near (x, y),
 *   innermost first (`document.scrollingElement` for the page)
 * @property {(scroller: Element) => { left?: number, top?: number } | null} [scrollEnd] how far a
 *   drag may scroll `scroller` (where its content ends, when that is before its scrollable end:
 *   a board's last column, not the room after it); null or absent: to its end
 * @property {import("./drag-keys.js").KeyLists} lists what a keyboard step needs of the lists
 */
/**
 * What the engine tells the host. `pickUp` runs once a drag began (the host sends its
 * `drag.start`), `over` when its place or the item it goes into changed (`drag.over`),
 * `drop` on a release or a key that drops (the host moves the items; the engine has already
 * put the page back), `cancel` when it ended without a move (`drag.end`), `interrupt` when a
 * render found it impossible (a carried item deleted, or `refusal` now says why).
 * `step` after a keyboard key that did not move the item ("still": it cannot go further).
 * @typedef {object} DragCallbacks
 * @property {(drag: Drag) => void} [pickUp]
 * @property {(drag: Drag) => void} [over]
 * @property {(drag: Drag) => void} [drop] runs inside `look.animate`'s change, with the page's
 *   traces of the drag removed: the host's move shows in the same change
 * @property {(drag: Drag, reason: CancelReason) => void} [cancel]
 * @property {(drag: Drag, why: string | null) => void} [interrupt] why: the refusal, or null when an item is gone
 * @property {(drag: Drag) => void} [still]
 * @property {(text: string, mode: "pointer" | "keyboard") => void} [refused] a pick-up refused: `refusal`'s words
 */
/**
 * The class names the engine sets, and how it draws.
 * @typedef {object} DragLook
 * @property {string} [pressing] on an item a finger rests on
 * @property {string} [carried] on the items being carried
 * @property {string} [keyboard] on the item carried by keyboard, too
 * @property {string} [avatar] on the copy under the pointer
 * @property {string} [willCancel] on the avatar when a release would cancel
 * @property {string} [into] on the item a release goes into
 * @property {string} [landing] on the carried items once a pointer drag ended, until `land`
 *   has brought the avatar home (it removes it); with no `land` the engine removes it at once
 * @property {string} [bodyDragging] on `body` during a pointer drag
 * @property {boolean} [hideCarried] hide the carried items (`display: none`) during a pointer
 *   drag (false: the host's CSS does, by `carried`)
 * @property {(avatar: HTMLElement, element: HTMLElement) => void} [dressAvatar] changes the copy
 *   before it shows (the engine has removed ids, tabindex and `aria-describedby`)
 * @property {string} [avatarTransform] added to the avatar's translation ("rotate(2deg)")
 * @property {(change: () => void, parents: Node[]) => void} [animate] runs a change of the
 *   page's nodes (the placeholder or a carried item moving in or out of `parents`), so the
 *   host can animate what it displaced
 * @property {(avatar: HTMLElement, drag: Drag, how: "drop" | "cancel") => void} [land] takes
 *   the avatar when a drag ends (to fly it home); by default it is removed
 */
/**
 * @typedef {object} DragOptions
 * @property {DragHost} host
 * @property {DragCallbacks} [on]
 * @property {DragLook} [look]
 * @property {HTMLElement} placeholder the element that shows where a release would land
 * @property {number} [holdDelay] how long a finger rests before an item lifts, in ms (250)
 * @property {number} [dwell] how long over an item that takes drops before a release goes into it, in ms (500)
 * @property {string[]} [pickUpKeys] the keys that pick the focused item up ([" ", "Enter"])
 * @property {boolean} [across] Left and Right carry a keyboard-held item to the list beside
 * @property {boolean} [listenToKeys] the engine listens to keys on `root` itself (true); false:
 *   the host passes them to `key`
 * @property {Timing} [timing] the clock and frames (the window's by default)
 */
/**
 * @typedef {{ now(): number, setTimeout(run: () => void, ms: number): unknown, clearTimeout(timer: unknown): void,
 *   requestAnimationFrame(run: () => void): unknown, cancelAnimationFrame(frame: unknown): void }} Timing
 */

/** @type {Timing} */
const windowTiming = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(/** @type {number} */ (timer)),
  requestAnimationFrame: (run) => requestAnimationFrame(run),
  cancelAnimationFrame: (frame) => cancelAnimationFrame(/** @type {number} */ (frame)),
};

export class DragEngine {
  /**
   * @param {HTMLElement} root where presses (and keys) on items are listened to
   * @param {DragOptions} options
   */
  constructor(root, { host, on = {}, look = {}, placeholder, holdDelay = HOLD_MS, dwell, pickUpKeys = [" ", "Enter"], across = false, listenToKeys = true, timing = windowTiming }) {
    this.root = root;
    this.host = host;
    this.on = on;
    this.look = { pressing: "", carried: "", keyboard: "", avatar: "", willCancel: "", into: "", landing: "", bodyDragging: "", avatarTransform: "", hideCarried: true, ...look };
    this.placeholder = placeholder;
    this.holdDelay = holdDelay;
    this.dwell = dwell;
    this.pickUpKeys = pickUpKeys;
    this.across = across;
    this.timing = timing;
    /** @type {{ gesture: PressGesture, element: HTMLElement, id: string, pointerId: number, timer: unknown } | null} */
    this.press = null;
    /** @type {Drag | null} */
    this.drag = null;
    /** @type {{ avatar: HTMLElement, offsetX: number, offsetY: number, x: number, y: number, aim: DropAim,
     *   frame: unknown, dwellTimer: unknown, due: number | null, frameAt: number | null, edgeSince: number | null } | null}
     *   the pointer's part of a drag (`frameAt`: the last scroll frame's time; `edgeSince`: since when it waits at an edge) */
    this.pointer = null;

    this.onDown = (/** @type {PointerEvent} */ event) => this.pressed(event);
    this.onMove = (/** @type {PointerEvent} */ event) => this.moved(event);
    this.onUp = (/** @type {PointerEvent} */ event) => this.released(event);
    this.onPointerCancel = () => (this.drag ? this.cancel("pointer lost") : this.letGoOfPress());
    this.onWindowKey = (/** @type {KeyboardEvent} */ event) => {
      if (event.key !== "Escape" || this.drag?.mode !== "pointer") return;
      event.preventDefault();
      this.cancel("escape");
    };
    this.onRootKey = (/** @type {KeyboardEvent} */ event) => {
      if (this.key(event, /** @type {HTMLElement} */ (event.target))) event.preventDefault();
    };
    // Once an item is picked up by touch, the finger carries it instead of scrolling the page.
    // Registered for good, not when a press begins: the browser decides whether a touch may
    // be held back from scrolling when it starts, by the listeners there are then.
    this.onTouchMove = (/** @type {TouchEvent} */ event) => {
      if ((this.drag?.mode === "pointer" || this.press?.gesture.state === "lifted") && event.cancelable) event.preventDefault();
    };
    // A long press would open the browser's menu; the browser's own drag (of an image or a
    // link in an item) would take the pointer away.
    this.onPressOnly = (/** @type {Event} */ event) => {
      if (this.press || this.drag?.mode === "pointer") event.preventDefault();
    };
    root.addEventListener("pointerdown", this.onDown);
    root.addEventListener("contextmenu", this.onPressOnly);
    root.addEventListener("dragstart", this.onPressOnly);
    root.addEventListener("touchmove", this.onTouchMove, { passive: false });
    this.listenToKeys = listenToKeys;
    if (listenToKeys) root.addEventListener("keydown", this.onRootKey);
  }

  /** True while something is carried. */
  get active() {
    return this.drag !== null;
  }

  // MARK: Pointer

  /** @param {PointerEvent} event */
  pressed(event) {
    if (event.button !== 0 || this.drag?.mode === "pointer" || this.press) return;
    const found = this.host.pressable(/** @type {Element} */ (event.target), event);
    if (!found) return;
    // A press puts down what the keyboard carries.
    if (this.drag) this.cancel("pointer");
    const waitsForHold = event.pointerType === "touch" && !found.handle;
    const gesture = new PressGesture({ x: event.clientX, y: event.clientY, waitsForHold });
    this.press = { gesture, element: found.element, id: found.id, pointerId: event.pointerId, timer: null };
    if (waitsForHold) {
      const press = this.press;
      press.timer = this.timing.setTimeout(() => this.held(press), this.holdDelay);
      this.mark(found.element, this.look.pressing, true);
    }
    window.addEventListener("pointermove", this.onMove);
    window.addEventListener("pointerup", this.onUp);
    window.addEventListener("pointercancel", this.onPointerCancel);
  }

  /**
   * The finger rested long enough: the item lifts where the finger is.
   * @param {NonNullable<DragEngine["press"]>} press
   */
  held(press) {
    if (this.press !== press || press.gesture.held() !== "lift") return;
    this.mark(press.element, this.look.pressing, false);
    if (!this.lift(press.gesture.lastX, press.gesture.lastY)) this.letGoOfPress();
  }

  /** @param {PointerEvent} event */
  moved(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId) return;
    if (!this.pointer) {
      const action = press.gesture.moved(event.clientX, event.clientY);
      if (action === "scroll") return this.letGoOfPress();
      if (action === "wait") return undefined;
      if (!this.lift(press.gesture.x, press.gesture.y)) return this.letGoOfPress();
    }
    event.preventDefault();
    const pointer = /** @type {NonNullable<DragEngine["pointer"]>} */ (this.pointer);
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    this.follow();
    return undefined;
  }

  /** @param {PointerEvent} event */
  released(event) {
    if (!this.press || event.pointerId !== this.press.pointerId) return;
    if (this.drag?.mode === "pointer") this.drop();
    this.letGoOfPress();
  }

  letGoOfPress() {
    if (this.press) {
      this.timing.clearTimeout(this.press.timer);
      this.mark(this.press.element, this.look.pressing, false);
    }
    this.press = null;
    window.removeEventListener("pointermove", this.onMove);
    window.removeEventListener("pointerup", this.onUp);
    window.removeEventListener("pointercancel", this.onPointerCancel);
  }

  /**
   * Lifts the pressed item (and what it carries along) into an avatar held at (x, y). False
   * when it may not move now.
   * @param {number} x
   * @param {number} y
   */
  lift(x, y) {
    const { element, id } = /** @type {NonNullable<DragEngine["press"]>} */ (this.press);
    // Removed by a render while it was pressed (a hold lasts a quarter of a second).
    if (!element.isConnected) return false;
    const drag = this.begin(id, element, "pointer");
    if (!drag) return false;
    // Measured before anything is written: a read after the avatar went in laid the page out
    // once more.
    const rect = element.getBoundingClientRect();
    const [width, height] = [element.offsetWidth, element.offsetHeight];
    const avatar = /** @type {HTMLElement} */ (element.cloneNode(true));
    for (const name of [this.look.carried, this.look.pressing, this.look.keyboard]) if (name) avatar.classList.remove(name);
    if (this.look.avatar) avatar.classList.add(this.look.avatar);
    for (const attribute of ["data-id", "id", "tabindex", "aria-describedby"]) avatar.removeAttribute(attribute);
    avatar.setAttribute("aria-hidden", "true");
    // The avatar keeps the item's layout size (a pressed item may be drawn a little larger),
    // so its text wraps as it did in the list.
    Object.assign(avatar.style, {
      position: "fixed", left: "0", top: "0", margin: "0", boxSizing: "border-box",
      width: `${width}px`, height: `${height}px`, pointerEvents: "none", zIndex: "2147483647",
    });
    if (drag.ids.length > 1) avatar.dataset.count = String(drag.ids.length);
    this.look.dressAvatar?.(avatar, element);
    // A host's style may let the avatar take the pointer (to show its cursor at no cost to the
    // rest of the page): a wheel turned over it still scrolls what is under it.
    avatar.addEventListener("wheel", (event) => this.wheeled(event), { passive: false });
    // On the body, not in the list: no list's scroll box clips it, no list style applies.
    document.body.append(avatar);
    this.placeholder.style.height = `${height}px`;
    this.pointer = { avatar, offsetX: x - rect.left, offsetY: y - rect.top, x, y, aim: new DropAim(drag.origin, this.dwell), frame: null, dwellTimer: null, due: null, frameAt: null, edgeSince: null };
    const at = this.host.nodeAt(drag.origin, new Set(drag.ids));
    this.change(() => {
      at?.parent.insertBefore(this.placeholder, at.next);
      this.markCarried(true);
    }, at ? [at.parent] : []);
    if (this.look.bodyDragging) document.body.classList.add(this.look.bodyDragging);
    window.addEventListener("keydown", this.onWindowKey);
    this.on.pickUp?.(drag);
    this.follow();
    this.scrollLoop();
    return true;
  }

  /**
   * A wheel turned over the avatar scrolls the boxes under the pointer (the host's
   * `scrollersAt`, innermost first), as it would have without the avatar.
   * @param {WheelEvent} event
   */
  wheeled(event) {
    const unit = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? 16 : event.deltaMode === WheelEvent.DOM_DELTA_PAGE ? innerHeight : 1;
    const scroll = wheelScroll(this.host.scrollersAt(event.clientX, event.clientY), event.deltaX * unit, event.deltaY * unit);
    if (!scroll) return;
    event.preventDefault();
    scroll.scroller.scrollBy(scroll.left, scroll.top);
  }

  /** The avatar follows the pointer; the placeholder goes where a release would land. */
  follow() {
    const drag = /** @type {Drag} */ (this.drag);
    const pointer = /** @type {NonNullable<DragEngine["pointer"]>} */ (this.pointer);
    const { avatar, x, y } = pointer;
    // Where the point lands is read before the avatar moves: a read after that write restyled
    // the page first.
    const slot = this.host.slotAt(x, y, new Set(drag.ids));
    avatar.style.transform = `translate(${x - pointer.offsetX}px, ${y - pointer.offsetY}px) ${this.look.avatarTransform}`.trim();
    if (this.look.willCancel) avatar.classList.toggle(this.look.willCancel, !slot);
    const change = pointer.aim.aim(slot, this.timing.now());
    if (change.due !== pointer.due) {
      // A new wait over an item that takes drops (or none): its timer replaces the last one.
      this.timing.clearTimeout(pointer.dwellTimer);
      pointer.due = change.due;
      pointer.dwellTimer = change.due === null ? null : this.timing.setTimeout(() => this.dwelt(), Math.max(0, change.due - this.timing.now()));
    }
    if (change.intoChanged) this.showInto(null);
    if (!change.placeChanged && !change.intoChanged) return;
    drag.place = pointer.aim.place;
    drag.into = pointer.aim.into;
    if (change.placeChanged) this.showPlaceholder();
    this.on.over?.(drag);
  }

  /** The pointer stayed over an item that takes drops: a release now goes into it. */
  dwelt() {
    const drag = this.drag;
    const pointer = this.pointer;
    if (!drag || !pointer) return;
    const now = this.timing.now();
    if (!pointer.aim.tick(now)) {
      // A timer may fire a little before the clock says it is due: wait for the rest.
      const due = pointer.aim.due;
      if (due !== null) pointer.dwellTimer = this.timing.setTimeout(() => this.dwelt(), Math.max(1, due - now));
      return;
    }
    drag.into = pointer.aim.into;
    this.showInto(drag.into);
    this.on.over?.(drag);
  }

  /**
   * Marks the item a release goes into (null: none).
   * @param {string | null} id
   */
  showInto(id) {
    if (!this.look.into) return;
    for (const element of this.root.querySelectorAll(`.${CSS.escape(this.look.into)}`)) element.classList.remove(this.look.into);
    if (id !== null) this.host.elementOf(id)?.classList.add(this.look.into);
  }

  /** The placeholder where the drag's place is (out of the lists when it has none). */
  showPlaceholder() {
    const drag = /** @type {Drag} */ (this.drag);
    const place = drag.place;
    const at = place ? this.host.nodeAt(place, new Set(drag.ids)) : null;
    if (at && this.placeholder.parentNode === at.parent && this.placeholder.nextSibling === at.next) return;
    const from = this.placeholder.parentNode;
    this.change(() => {
      if (at) at.parent.insertBefore(this.placeholder, at.next);
      else this.placeholder.remove();
    }, [...(from ? [from] : []), ...(at ? [at.parent] : [])]);
  }

  /**
   * Near an edge of a box that scrolls, the box scrolls while the pointer waits there: the
   * nearer the edge, the faster, slowly at first (pacedStep), and no further than its content
   * (the host's `scrollEnd`).
   */
  scrollLoop() {
    const pointer = this.pointer;
    if (!pointer) return;
    const { x, y } = pointer;
    const now = this.timing.now();
    const elapsed = pointer.frameAt === null ? 1000 / 60 : now - pointer.frameAt;
    pointer.frameAt = now;
    let moved = false;
    let atAnEdge = false;
    for (const scroller of this.host.scrollersAt(x, y)) {
      const isPage = scroller === document.scrollingElement;
      const rect = isPage ? new DOMRect(0, 0, innerWidth, innerHeight) : scroller.getBoundingClientRect();
      const end = this.host.scrollEnd?.(scroller) ?? null;
      const stepX = boundedStep(edgeStep(x, rect.left, rect.right, scroller.scrollLeft, scroller.scrollWidth - scroller.clientWidth), scroller.scrollLeft, end?.left);
      const stepY = boundedStep(edgeStep(y, rect.top, rect.bottom, scroller.scrollTop, scroller.scrollHeight - scroller.clientHeight), scroller.scrollTop, end?.top);
      if (stepX === 0 && stepY === 0) continue;
      atAnEdge = true;
      pointer.edgeSince ??= now;
      const waited = now - pointer.edgeSince;
      const dx = boundedStep(pacedStep(stepX, elapsed, waited), scroller.scrollLeft, end?.left);
      const dy = boundedStep(pacedStep(stepY, elapsed, waited), scroller.scrollTop, end?.top);
      const [left, top] = [scroller.scrollLeft, scroller.scrollTop];
      scroller.scrollLeft += dx;
      scroller.scrollTop += dy;
      moved ||= scroller.scrollLeft !== left || scroller.scrollTop !== top;
    }
    if (!atAnEdge) pointer.edgeSince = null;
    // Only a scroll moves the items under a pointer that waits (a long list is not measured every frame).
    if (moved) this.follow();
    pointer.frame = this.timing.requestAnimationFrame(() => this.scrollLoop());
  }

  // MARK: Keyboard

  /**
   * A key on `element` (an item, or something in one). True when it was the engine's: the
   * host (or the engine's own listener) prevents its default.
   * @param {KeyboardEvent} event
   * @param {HTMLElement} element
   */
  key(event, element) {
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    const drag = this.drag;
    if (!drag) {
      if (!this.pickUpKeys.includes(event.key) || this.press) return false;
      const id = this.host.keyItem(element);
      if (id === null) return false;
      this.pickUpByKey(id, element);
      return true;
    }
    if (drag.mode !== "keyboard" || this.host.keyItem(element) !== drag.id) return false;
    const place = /** @type {DragPlace} */ (drag.place);
    const step = keyStep(event.key, place, this.host.lists, { across: this.across });
    switch (step.kind) {
      case "drop":
        this.drop();
        return true;
      case "cancel":
        this.cancel(step.focusMovesOn ? "tab" : "escape");
        return !step.focusMovesOn; // Tab goes on to the next element
      case "still":
        this.on.still?.(drag);
        return true;
      case "place": {
        const from = this.host.elementOf(drag.id)?.parentNode;
        drag.place = step.place;
        const to = this.host.nodeAt(step.place, new Set(drag.ids))?.parent;
        this.change(() => this.placeCarried(), /** @type {Node[]} */ ([from, to].filter(Boolean)));
        this.on.over?.(drag);
        return true;
      }
      default:
        return true; // nothing else while an item is in hand (no page scroll either)
    }
  }

  /**
   * @param {string} id
   * @param {HTMLElement} element
   */
  pickUpByKey(id, element) {
    const drag = this.begin(id, element, "keyboard");
    if (!drag) return;
    this.markCarried(true);
    this.mark(element, this.look.keyboard, true);
    this.on.pickUp?.(drag);
  }

  /** Shows the item carried by keyboard at its place, keeping the focus on it. */
  placeCarried() {
    const drag = /** @type {Drag} */ (this.drag);
    const element = this.host.elementOf(drag.id);
    if (!element || !drag.place) return;
    const at = this.host.nodeAt(drag.place, new Set(drag.ids));
    if (at && (element.parentNode !== at.parent || element.nextSibling !== at.next)) at.parent.insertBefore(element, at.next);
    this.mark(element, this.look.carried, true);
    this.mark(element, this.look.keyboard, true);
    element.focus({ preventScroll: false });
  }

  // MARK: Both

  /**
   * A drag of `id` (and what it carries along) begins, unless the host refuses.
   * @param {string} id
   * @param {HTMLElement} element
   * @param {"pointer" | "keyboard"} mode
   * @returns {Drag | null}
   */
  begin(id, element, mode) {
    const ids = this.host.carried(id, mode);
    const refusal = this.host.refusal(ids);
    const origin = this.host.placeOf(id);
    if (refusal !== null || origin === null) {
      this.on.refused?.(refusal ?? "It is no longer on the list.", mode);
      return null;
    }
    this.drag = { id, ids, element, mode, origin, place: origin, into: null };
    return this.drag;
  }

  /** A release, or a key that drops: the page is put back, then the host moves the items. */
  drop() {
    const drag = /** @type {Drag} */ (this.drag);
    if (drag.mode === "pointer" && !drag.place && !drag.into) return this.cancel("off the lists");
    this.finish("drop", () => this.on.drop?.(drag));
    return undefined;
  }

  /**
   * Ends the drag without a move, and says why to the host (`cancel`).
   * @param {CancelReason} reason
   */
  cancel(reason) {
    const drag = this.drag;
    if (!drag) return this.letGoOfPress();
    this.finish("cancel");
    this.on.cancel?.(drag, reason);
    return undefined;
  }

  /**
   * The server ended or refused the drag: it stops here, with no callback. False when there was none.
   * @returns {boolean}
   */
  abort() {
    if (!this.drag) return false;
    this.finish("cancel");
    return true;
  }

  /** After the host drew its lists again: the carried items' marks and the placeholder go back, or the drag ends. */
  restore() {
    const drag = this.drag;
    if (!drag) return;
    const gone = drag.ids.some((id) => !this.host.elementOf(id));
    const refusal = gone ? null : this.host.refusal(drag.ids);
    if (gone || refusal !== null) {
      this.finish("cancel");
      this.on.interrupt?.(drag, refusal);
      return undefined;
    }
    drag.element = /** @type {HTMLElement} */ (this.host.elementOf(drag.id));
    if (drag.place) {
      // Others' changes can shorten the list under the drag.
      const count = this.host.lists.count(drag.place.list);
      if (drag.place.index > count) drag.place = { list: drag.place.list, index: count };
      if (!this.host.nodeAt(drag.place, new Set(drag.ids))) return this.cancel("list gone");
    }
    if (drag.into !== null && !this.host.elementOf(drag.into)) {
      drag.into = null;
      if (this.pointer) this.pointer.aim = new DropAim(drag.place, this.dwell);
    }
    this.markCarried(true);
    if (drag.mode === "keyboard") this.placeCarried();
    else {
      this.showPlaceholder();
      this.showInto(drag.into);
    }
    return undefined;
  }

  /**
   * Removes every trace of the drag from the page, then runs `then` (the host's move) in the
   * same change; the avatar goes to `look.land`.
   * @param {"drop" | "cancel"} how
   * @param {() => void} [then]
   */
  finish(how, then) {
    const drag = /** @type {Drag} */ (this.drag);
    const pointer = this.pointer;
    this.drag = null;
    this.pointer = null;
    window.removeEventListener("keydown", this.onWindowKey);
    if (!pointer) {
      this.markCarried(false, drag);
      const element = this.host.elementOf(drag.id);
      if (element) this.mark(element, this.look.keyboard, false);
      then?.();
      return;
    }
    this.timing.cancelAnimationFrame(pointer.frame);
    this.timing.clearTimeout(pointer.dwellTimer);
    this.showInto(null);
    const parents = [this.placeholder.parentNode, ...drag.ids.map((id) => this.host.elementOf(id)?.parentNode)];
    this.change(() => {
      this.placeholder.remove();
      if (this.look.bodyDragging) document.body.classList.remove(this.look.bodyDragging);
      this.markCarried(false, drag);
      if (this.look.land) {
        for (const id of drag.ids) {
          const element = this.host.elementOf(id);
          if (element) this.mark(element, this.look.landing, true);
        }
      }
      then?.();
    }, /** @type {Node[]} */ (parents.filter(Boolean)));
    if (this.look.land) this.look.land(pointer.avatar, drag, how);
    else pointer.avatar.remove();
    this.letGoOfPress();
  }

  /**
   * Marks (or unmarks) the carried items, hidden during a pointer drag.
   * @param {boolean} on
   * @param {Drag} [drag]
   */
  markCarried(on, drag = /** @type {Drag} */ (this.drag)) {
    const hide = drag.mode === "pointer" && this.look.hideCarried;
    for (const id of drag.ids) {
      const element = this.host.elementOf(id);
      if (!element) continue;
      this.mark(element, this.look.carried, on);
      if (hide) element.style.display = on ? "none" : "";
    }
  }

  /**
   * @param {Element} element
   * @param {string | undefined} name
   * @param {boolean} on
   */
  mark(element, name, on) {
    if (name) element.classList.toggle(name, on);
  }

  /**
   * @param {() => void} change
   * @param {Node[]} parents the lists it changes
   */
  change(change, parents) {
    if (this.look.animate) this.look.animate(change, parents);
    else change();
  }

  destroy() {
    if (this.drag) this.cancel("host");
    this.letGoOfPress();
    this.root.removeEventListener("pointerdown", this.onDown);
    this.root.removeEventListener("contextmenu", this.onPressOnly);
    this.root.removeEventListener("dragstart", this.onPressOnly);
    this.root.removeEventListener("touchmove", this.onTouchMove);
    if (this.listenToKeys) this.root.removeEventListener("keydown", this.onRootKey);
  }
}
