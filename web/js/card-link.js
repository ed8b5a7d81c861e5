// @ts-check
// A link to one card of a board: `/b/BOARD#card-ITEM` (the link a card dragged out of the
// board is to carry). Opening it, the page shows the board, scrolls the
// card into view (a long column redrawn around it), focuses it and highlights it for a moment;
// a card no longer on the board (moved elsewhere, deleted) is said so, and the board is shown.

/** How long the linked card stays highlighted, in ms. */
export const HIGHLIGHT_MS = 2_000;

/**
 * The item id a `#card-…` fragment names, or null (another fragment, or a broken escape).
 * @param {string} hash `location.hash`
 * @returns {string | null}
 */
export function linkedCard(hash) {
  if (!hash.startsWith("#card-")) return null;
  try {
    return decodeURIComponent(hash.slice("#card-".length)) || null;
  } catch {
    return null;
  }
}

/**
 * The link to card `item` of board `board` on the server at `origin`.
 * @param {string} origin
 * @param {string} board
 * @param {string} item
 */
export function cardLink(origin, board, item) {
  return `${origin}/b/${encodeURIComponent(board)}#card-${encodeURIComponent(item)}`;
}

/**
 * Shows the card the fragment names, if it names one.
 * @param {string} hash
 * @param {{ reveal(id: string): HTMLElement | undefined }} view
 * @param {{ say(text: string): void }} announcer
 */
export function showLinkedCard(hash, view, announcer) {
  const id = linkedCard(hash);
  if (id === null) return;
  const card = view.reveal(id);
  if (!card) return announcer.say("The linked card is no longer on this board.");
  card.scrollIntoView({ block: "center", inline: "center" });
  card.focus({ preventScroll: true });
  card.classList.add("linked");
  setTimeout(() => card.classList.remove("linked"), HIGHLIGHT_MS);
}
