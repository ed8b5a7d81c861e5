// @ts-check
// Who is on the board, in the top bar: a name per person in their colour on wide screens, a
// compact stack of initials on a phone (board.css switches), so that a person on a phone
// still sees who else is there. The stack shows a few and counts the rest ("+3").

import { colourOf } from "./people.js";

/** How many people the phone's stack shows before it counts the rest. */
const STACK_SIZE = 4;

/** @typedef {{ client: string, name: string, hue?: number | null, self?: boolean }} Person */

/**
 * "Ada Lovelace" → "AL", "bob" → "B": at most two letters, from the first two words.
 * @param {string} name
 * @returns {string}
 */
export function initials(name) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  // for…of walks by code points: a name starting with an emoji keeps it whole.
  const letters = words.slice(0, 2).map((word) => [...word][0]);
  return letters.join("").toUpperCase() || "?";
}

/**
 * Fills `list` with one item per person (`data-client`, the name as its text and title). On a
 * big board the server names only some people (docs/protocol.md#peers): `count` says how many
 * are there, and those not named are counted in a last item, "and N others". Your own item
 * holds a button that calls `openSelf` (to change your name), when given.
 * @param {HTMLElement} list
 * @param {Person[]} people
 * @param {number} [count] everyone on the board, at least `people.length`
 * @param {((button: HTMLElement) => void) | null} [openSelf]
 */
export function showPeople(list, people, count = people.length, openSelf = null) {
  const items = people.map((person, index) => {
    const item = document.createElement("li");
    item.dataset.client = person.client;
    item.dataset.initials = initials(person.name);
    item.style.setProperty("--person-color", colourOf(person));
    item.textContent = person.name;
    item.title = person.self ? `${person.name} (you)` : person.name;
    if (person.self && openSelf) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "self-name";
      button.textContent = person.name;
      button.setAttribute("aria-haspopup", "dialog");
      button.setAttribute("aria-label", `${person.name} (you): change your name`);
      button.addEventListener("click", (event) => {
        // Not the phone stack's tap that opens the names: this one opens the editor.
        event.stopPropagation();
        openSelf(button);
      });
      item.replaceChildren(button);
    }
    if (person.self) item.classList.add("self");
    if (index >= STACK_SIZE) item.classList.add("beyond-stack");
    return item;
  });
  const unnamed = Math.max(0, count - people.length);
  const beyond = people.length + unnamed - STACK_SIZE;
  if (unnamed > 0) {
    const others = document.createElement("li");
    others.className = "others beyond-stack";
    others.dataset.count = String(unnamed);
    others.textContent = `and ${unnamed} other${unnamed === 1 ? "" : "s"}`;
    items.push(others);
  }
  if (beyond > 0) {
    const more = document.createElement("li");
    more.className = "more";
    more.dataset.initials = `+${beyond}`;
    more.textContent = `and ${beyond} more`;
    more.title = people.slice(STACK_SIZE).map((person) => person.name).join(", ");
    items.push(more);
  }
  list.replaceChildren(...items);
}

/**
 * On a phone the stack shows initials only, and the names are in each item's `title`, which
 * a touch screen never shows (it has no hover): a tap on the stack opens it into the names
 * (board.css draws them as on a wide screen), another tap, a tap elsewhere or Escape folds it.
 * @param {HTMLElement} list
 */
export function namesOnTap(list) {
  list.addEventListener("click", () => list.classList.toggle("names-shown"));
  document.addEventListener("pointerdown", (event) => {
    if (!list.contains(/** @type {Node | null} */ (event.target))) list.classList.remove("names-shown");
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") list.classList.remove("names-shown");
  });
}
