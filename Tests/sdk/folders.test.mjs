// The board page's folders (web/js/folders.js): the open folders remembered per person and
// board, and where cards may go into a folder. Run: node --test Tests/sdk/
import { test } from "node:test";
import assert from "node:assert/strict";
import { OpenFolders, folderDestinations, listName, mayGoInto } from "../../web/js/folders.js";

/** A localStorage stand-in. */
function memoryStorage() {
  const map = new Map();
  return {
    map,
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
  };
}

/** To do: f1 "Ideas" (holding a1 and f2 "Later", which holds b1), t1; Doing: f3 "Locked" (accepts false), d1. */
function board() {
  return {
    id: "b",
    title: "B",
    locked: false,
    collections: [
      { id: "todo", title: "To do", items: [{ id: "f1", label: "Ideas", folder: { accepts: true } }, { id: "t1", label: "One" }] },
      { id: "doing", title: "Doing", items: [{ id: "f3", label: "Locked", folder: { accepts: false } }, { id: "d1", label: "Two" }] },
    ],
    folders: {
      f1: [{ id: "a1", label: "Inside" }, { id: "f2", label: "Later", folder: { accepts: true } }],
      f2: [{ id: "b1", label: "Deep" }],
      f3: [{ id: "c1", label: "Kept" }],
    },
  };
}

test("open folders are remembered per board and person, and survive a new page", () => {
  const storage = memoryStorage();
  const first = new OpenFolders(storage, "b1", "Ada");
  assert.equal(first.isOpen("f1"), false);
  assert.equal(first.toggle("f1"), true);
  assert.equal(first.toggle("f2", true), true);
  assert.equal(first.toggle("f2"), false);
  const again = new OpenFolders(storage, "b1", "Ada");
  assert.equal(again.isOpen("f1"), true);
  assert.equal(again.isOpen("f2"), false);
  assert.equal(new OpenFolders(storage, "b2", "Ada").isOpen("f1"), false, "another board");
  assert.equal(new OpenFolders(storage, "b1", "Bob").isOpen("f1"), false, "another person");
  again.toggle("f1", false);
  assert.equal(storage.map.size, 0, "nothing kept once every folder is closed");
});

test("unreadable or missing storage: every folder closed, toggles still work", () => {
  const storage = memoryStorage();
  storage.setItem("corkboard.open-folders.Ada.b1", "{not json");
  assert.equal(new OpenFolders(storage, "b1", "Ada").isOpen("f1"), false);
  storage.setItem("corkboard.open-folders.Ada.b1", JSON.stringify({ f1: true }));
  assert.equal(new OpenFolders(storage, "b1", "Ada").isOpen("f1"), false);
  const none = new OpenFolders(null, "b1", "Ada");
  assert.equal(none.toggle("f1"), true);
  assert.equal(none.isOpen("f1"), true);
  const throwing = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("full"); }, removeItem: () => {} };
  const refused = new OpenFolders(throwing, "b1", "Ada");
  assert.equal(refused.toggle("f1"), true);
});

test("a folder takes cards unless it refuses drops or they are it or around it", () => {
  const b = board();
  assert.equal(mayGoInto(b, "f1", ["t1"]), true);
  assert.equal(mayGoInto(b, "f2", ["t1", "d1"]), true);
  assert.equal(mayGoInto(b, "f1", ["f1"]), false, "itself");
  assert.equal(mayGoInto(b, "f2", ["f1"]), false, "a folder inside it");
  assert.equal(mayGoInto(b, "f2", ["t1", "f1"]), false, "one of the cards is around it");
  assert.equal(mayGoInto(b, "f3", ["t1"]), false, "refuses drops");
  assert.equal(mayGoInto(b, "f3", ["c1"]), true, "reordering inside is allowed");
  assert.equal(mayGoInto(b, "t1", ["d1"]), false, "not a folder");
  assert.equal(mayGoInto(b, "nope", ["d1"]), false, "not on the board");
});

test("Move to… lists the folders a card may go into, named with where they are", () => {
  const b = board();
  assert.deepEqual(folderDestinations(b, ["t1"]), [
    { id: "f1", name: "Ideas (folder in To do)" },
    { id: "f2", name: "Later (folder in Ideas)" },
  ]);
  assert.deepEqual(folderDestinations(b, ["f1"]), [], "not its own subtree; not a folder refusing drops");
  assert.deepEqual(folderDestinations(b, ["f2"]).map((d) => d.id), ["f1"]);
  assert.deepEqual(folderDestinations(b, ["c1"]).map((d) => d.id), ["f1", "f2", "f3"], "its own folder, though it refuses drops");
  assert.deepEqual(folderDestinations({ ...b, folders: undefined, collections: [{ id: "x", title: "X", items: [] }] }, ["t1"]), []);
});

test("lists are named by a column's title or a folder's label", () => {
  const b = board();
  assert.equal(listName(b, "todo"), "To do");
  assert.equal(listName(b, "f2"), "Later");
  assert.equal(listName(b, "gone"), "gone");
});
