// Cards dragged out of a board (web/js/drag-out.js) and moved to another (web/js/transfers.js):
// the drag's data, the plan, and the two steps with opIds that make a retry harmless, against a
// fake board session and a fake server. Run: node --test Tests/sdk/
import { test } from "node:test";
import assert from "node:assert/strict";
import { CORKBOARD_TYPE, dragData, readPayload } from "../../web/js/drag-out.js";
import { Transfers, deleteOpId, insertOpId, keptPlans, transferPlan } from "../../web/js/transfers.js";

const board = {
  id: "b",
  title: "B",
  locked: false,
  collections: [{ id: "todo", title: "To do", items: [{ id: "t1", label: "Mine" }] }],
};
const payload = {
  origin: "http://127.0.0.1:8080",
  board: "a",
  drag: "drag-x1",
  items: [{ id: "t1", label: "Taken id" }, { id: "c2", label: "Card two", data: { url: "https://example.com/" } }],
};

test("a drag out carries the labels, links to the cards and the Corkboard payload", () => {
  const data = dragData("http://127.0.0.1:8080", "team a", "drag-x1", payload.items);
  assert.equal(data["text/plain"], "Taken id\nCard two");
  assert.equal(data["text/uri-list"], "http://127.0.0.1:8080/b/team%20a#card-t1\r\nhttp://127.0.0.1:8080/b/team%20a#card-c2");
  assert.deepEqual(readPayload(data[CORKBOARD_TYPE]), { ...payload, board: "team a" });
});

test("only a well-formed payload is read", () => {
  for (const text of ["", "{", "[]", JSON.stringify({ ...payload, items: [] }), JSON.stringify({ ...payload, drag: "a:b" }),
    JSON.stringify({ ...payload, items: [{ id: 1, label: "x" }] })]) {
    assert.equal(readPayload(text), null, text);
  }
});

test("the plan keeps ids that are free here and makes the taken ones unique to the drag", () => {
  const plan = transferPlan(payload, board, { collection: "todo", before: "t1" }, false);
  assert.deepEqual(plan.items.map((i) => i.id), ["t1~drag-x1", "c2"]);
  assert.deepEqual(plan.remove, ["t1", "c2"]);
  assert.deepEqual(plan.items[1].data, { url: "https://example.com/" });
  assert.equal(insertOpId(plan), "drag-x1:in");
  assert.equal(deleteOpId(plan), "drag-x1:out");
});

/** A session that commits inserts at once (or refuses them), and a storage in memory. */
function fakes({ refuse = null, pending = false } = {}) {
  const inserted = [];
  const session = {
    board: structuredClone(board),
    listeners: [],
    isPending: () => pending,
    insert(items, destination, options) {
      inserted.push({ items, destination, options });
      if (refuse) return Promise.reject(new Error(refuse));
      session.board.collections[0].items.push(...items);
      return Promise.resolve({ status: "committed" });
    },
    addEventListener: (type, listener) => session.listeners.push(listener),
    removeEventListener: (type, listener) => (session.listeners = session.listeners.filter((l) => l !== listener)),
  };
  const values = new Map();
  const storage = { getItem: (k) => values.get(k) ?? null, setItem: (k, v) => values.set(k, v) };
  const said = [];
  const shown = [];
  const parts = { session, token: "tok", notices: { show: (t) => shown.push(t) }, announcer: { say: (t) => said.push(t) } };
  return { session, inserted, storage, said, shown, parts };
}

/** A server answering the delete with `answers` in turn; the requests it got. */
function server(answers) {
  const requests = [];
  globalThis.fetch = async (url, init) => {
    requests.push({ url, init, body: JSON.parse(init.body) });
    const [status, body] = answers.length > 1 ? answers.shift() : answers[0];
    if (status === "offline") throw new TypeError("Failed to fetch");
    return { ok: status === 200, status, json: async () => body };
  };
  return requests;
}

test("a move inserts here, then deletes there, each with the drag's opId, and forgets the plan", async () => {
  const { inserted, storage, said, parts } = fakes();
  const requests = server([[200, { type: "committed" }]]);
  const plan = transferPlan(payload, board, { collection: "todo", before: null }, false);
  await new Transfers(parts, storage).start(plan);
  assert.equal(inserted.length, 1);
  assert.deepEqual(inserted[0].options, { opId: "drag-x1:in", undoable: false });
  assert.equal(requests.length, 1);
  assert.equal(requests[0].url, "/api/boards/a/ops");
  assert.equal(requests[0].init.headers.Authorization, "Bearer tok");
  assert.deepEqual(requests[0].body, { type: "delete", opId: "drag-x1:out", baseSeq: 0, items: ["t1", "c2"] });
  assert.deepEqual(keptPlans(storage), {});
  assert.deepEqual(said, ["Moved 2 cards here from board a."]);
});

test("a copy (Alt) makes no delete", async () => {
  const { storage, parts } = fakes();
  const requests = server([[200, {}]]);
  await new Transfers(parts, storage).start(transferPlan(payload, board, { collection: "todo" }, true));
  assert.equal(requests.length, 0);
  assert.deepEqual(keptPlans(storage), {});
});

test("a refused insert moves nothing: no delete, the plan forgotten, the page says so", async () => {
  const { storage, shown, parts } = fakes({ refuse: "the board is locked" });
  const requests = server([[200, {}]]);
  await new Transfers(parts, storage).start(transferPlan(payload, board, { collection: "todo" }, false));
  assert.equal(requests.length, 0);
  assert.deepEqual(keptPlans(storage), {});
  assert.deepEqual(shown, ["Nothing was moved: the board is locked."]);
});

test("a delete the other board refuses for good leaves the cards on both, and says so", async () => {
  const { storage, shown, parts } = fakes();
  server([[423, { type: "rejected", code: "locked", message: "the board is locked" }]]);
  await new Transfers(parts, storage).start(transferPlan({ ...payload, items: [payload.items[1]] }, board, { collection: "todo" }, false));
  assert.deepEqual(shown, ["“Card two” is now on this board and still on board a: it refused to let go of it (the board is locked)."]);
  assert.deepEqual(keptPlans(storage), {});
});

test("gone there counts as done; offline is tried again", async () => {
  const { storage, said, parts } = fakes();
  const requests = server([["offline"], [409, { type: "rejected", code: "gone", message: "none of the items to delete exists any more" }]]);
  const original = globalThis.setTimeout;
  globalThis.setTimeout = (f) => original(f, 0);
  try {
    await new Transfers(parts, storage).start(transferPlan(payload, board, { collection: "todo" }, false));
  } finally {
    globalThis.setTimeout = original;
  }
  assert.equal(requests.length, 2);
  assert.equal(requests[1].body.opId, "drag-x1:out", "the retry is the same operation");
  assert.deepEqual(said, ["Moved 2 cards here from board a."]);
});

test("a page that opens finishes what an earlier one began: the cards are here, only the delete goes", async () => {
  const { session, inserted, storage, parts } = fakes();
  const plan = transferPlan(payload, board, { collection: "todo" }, false);
  storage.setItem("corkboard.transfers", JSON.stringify({ [plan.drag]: plan }));
  session.board.collections[0].items.push(...plan.items);
  const requests = server([[200, {}]]);
  const transfers = new Transfers(parts, storage);
  transfers.resume();
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(inserted.length, 0, "the insert is not sent again");
  assert.equal(requests.length, 1);
  assert.deepEqual(keptPlans(storage), {});
});

test("a plan for another board waits for that board's page", () => {
  const { storage, parts } = fakes();
  const plan = { ...transferPlan(payload, board, { collection: "todo" }, false), to: "elsewhere" };
  storage.setItem("corkboard.transfers", JSON.stringify({ [plan.drag]: plan }));
  const requests = server([[200, {}]]);
  new Transfers(parts, storage).resume();
  assert.equal(requests.length, 0);
  assert.deepEqual(Object.keys(keptPlans(storage)), ["drag-x1"]);
});
