import { test } from "node:test";
import assert from "node:assert/strict";
import { cardLink, linkedCard, showLinkedCard } from "../../web/js/card-link.js";

test("a card link names the board and the card, escaped, and reads back", () => {
  const link = cardLink("http://127.0.0.1:8080", "team board", "card #1/2");
  assert.equal(link, "http://127.0.0.1:8080/b/team%20board#card-card%20%231%2F2");
  assert.equal(linkedCard(new URL(link).hash), "card #1/2");
});

test("only a #card- fragment with an id names a card", () => {
  assert.equal(linkedCard(""), null);
  assert.equal(linkedCard("#top"), null);
  assert.equal(linkedCard("#card-"), null);
  assert.equal(linkedCard("#card-%E0%A4%A"), null, "a broken escape names nothing");
  assert.equal(linkedCard("#card-t1"), "t1");
});

test("a card no longer on the board is said so, and nothing else happens", () => {
  const said = [];
  showLinkedCard("#card-gone", { reveal: () => undefined }, { say: (text) => said.push(text) });
  assert.deepEqual(said, ["The linked card is no longer on this board."]);
  showLinkedCard("#elsewhere", { reveal: () => assert.fail("not asked") }, { say: () => assert.fail("nothing to say") });
});
