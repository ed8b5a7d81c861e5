// @ts-check
// The page's small menus (a card's ⋯, a column's ⋯): buttons with role="menuitem" in a
// `div.menu` fixed under the button that opened it, ↑/↓ walking them, Escape closing it with
// the focus back on `returnTo`, a choice closing it before its action runs.

/** @typedef {[text: string, action: () => void]} MenuEntry */

/**
 * Shows a menu of `entries` under `anchor`, its first entry focused; `close` removes it (the
 * caller keeps the element to close it on a press elsewhere).
 * @param {MenuEntry[]} entries
 * @param {Element} anchor
 * @param {HTMLElement} returnTo where Escape puts the focus
 * @param {() => void} close
 * @param {string} [label] the menu's accessible name
 * @returns {HTMLElement}
 */
export function showMenu(entries, anchor, returnTo, close, label) {
  const menu = document.createElement("div");
  menu.className = "menu";
  menu.setAttribute("role", "menu");
  if (label) menu.setAttribute("aria-label", label);
  for (const [text, action] of entries) {
    const item = document.createElement("button");
    item.type = "button";
    item.setAttribute("role", "menuitem");
    item.textContent = text;
    item.addEventListener("click", () => {
      close();
      action();
    });
    menu.append(item);
  }
  menu.addEventListener("keydown", (event) => {
    const items = [...menu.querySelectorAll("button")];
    const at = items.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (event.key === "ArrowDown") items[(at + 1) % items.length].focus();
    else if (event.key === "ArrowUp") items[(at - 1 + items.length) % items.length].focus();
    else if (event.key === "Escape") {
      close();
      returnTo.focus();
    } else return;
    event.preventDefault();
    event.stopPropagation();
  });
  document.body.append(menu);
  const rect = anchor.getBoundingClientRect();
  menu.style.left = `${Math.min(rect.left, innerWidth - menu.offsetWidth - 8)}px`;
  menu.style.top = `${Math.min(rect.bottom + 4, innerHeight - menu.offsetHeight - 8)}px`;
  /** @type {HTMLElement} */ (menu.querySelector("button")).focus();
  return menu;
}
