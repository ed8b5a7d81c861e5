// @ts-check
// Long columns are drawn as a window: only the cards near the screen are in the DOM, each run
// of cards left out stands as one empty slot of their height (a spacer), so the column scrolls
// as if every card were there. A board of 10,000 cards then lays out and restyles a few
// hundred elements on each change, not 10,000. Cards the person is on (focused, in hand,
// being edited) stay in the DOM wherever they are, each in its place between spacers.

/** Columns with more cards than this are windowed; shorter ones show every card. */
export const WINDOW_AFTER = 150;
/** Cards drawn beyond each edge of what is seen, so a scroll or a keyboard step finds them there. */
export const OVERSCAN = 30;
/** A card's height plus the gap below it until one is measured. */
export const ROW_GUESS = 56;

/**
 * The indexes of a column's cards that are on the screen or near it (`first` to `last`, both
 * included), from where its list is, how far it is scrolled and the height of a card.
 * @param {HTMLElement} list the column's list (it scrolls, or the board or page does)
 * @param {number} count how many cards the column has
 * @param {number} row a card's height plus the gap after it
 * @returns {{ first: number, last: number }}
 */
export function seenRange(list, count, row) {
  const box = list.getBoundingClientRect();
  // A list not laid out yet (the first render) shows its first screenful.
  const seenTop = Math.max(box.top, 0);
  const seenBottom = box.height > 0 ? Math.min(box.bottom, innerHeight) : innerHeight;
  const from = list.scrollTop + (seenTop - box.top);
  const to = list.scrollTop + Math.max(seenBottom - box.top, 0);
  // Scrolled past where the cards end by this card height (it was a guess, or cards changed
  // height), the window still holds the last screenful: it is never empty.
  const top = Math.min(Math.floor(from / row), Math.max(0, count - Math.ceil((to - from) / row)));
  const first = Math.max(0, top - OVERSCAN);
  const last = Math.min(count - 1, Math.max(first, Math.ceil(to / row) + OVERSCAN));
  return { first, last };
}

/**
 * What a windowed column shows, top to bottom: the cards from `first` to `last` and the
 * pinned ones, and for each run of cards left out a gap (`from` to `to`, both included).
 * @param {string[]} ids the column's cards in order
 * @param {number} first
 * @param {number} last
 * @param {Set<string>} pinned cards shown wherever they are
 * @returns {({ id: string } | { from: number, to: number })[]}
 */
export function windowPlan(ids, first, last, pinned) {
  /** @type {({ id: string } | { from: number, to: number })[]} */
  const plan = [];
  let gapFrom = -1;
  for (let at = 0; at < ids.length; at += 1) {
    if ((at >= first && at <= last) || pinned.has(ids[at])) {
      if (gapFrom >= 0) plan.push({ from: gapFrom, to: at - 1 });
      gapFrom = -1;
      plan.push({ id: ids[at] });
    } else if (gapFrom < 0) {
      gapFrom = at;
    }
  }
  if (gapFrom >= 0) plan.push({ from: gapFrom, to: ids.length - 1 });
  return plan;
}
