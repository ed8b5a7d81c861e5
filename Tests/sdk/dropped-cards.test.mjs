// The board page's drops from outside (web/js/dropped-cards.js): what dragged text, links and
// files become as cards. Run: node --test Tests/sdk/
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_DROPPED_CARDS, MAX_LABEL_BYTES, cardDrafts, carriesCards, cutToBytes, uriListURLs } from "../../web/js/dropped-cards.js";

test("text, links and files can become cards; other types cannot", () => {
  assert.equal(carriesCards(["text/plain"]), true);
  assert.equal(carriesCards(["text/html", "text/uri-list"]), true);
  assert.equal(carriesCards(["Files"]), true);
  assert.equal(carriesCards(["text/html"]), false);
  assert.equal(carriesCards([]), false);
});

test("plain text: one card per non-empty line, trimmed", () => {
  const { drafts, leftOut } = cardDrafts({ text: "  Buy milk \r\n\n\tCall Ada\n   \nWrite the docs" });
  assert.deepEqual(drafts, [{ label: "Buy milk" }, { label: "Call Ada" }, { label: "Write the docs" }]);
  assert.equal(leftOut, 0);
});

test("blank text makes no card", () => {
  assert.deepEqual(cardDrafts({ text: " \n\t\n" }).drafts, []);
  assert.deepEqual(cardDrafts({}).drafts, []);
});

test("a link is titled by its anchor's text, its URL kept in data", () => {
  const { drafts } = cardDrafts({
    uriList: "https://example.com/a",
    text: "https://example.com/a",
    anchors: [{ href: "https://example.com/a", text: "\n  The   A page\n" }],
  });
  assert.deepEqual(drafts, [{ label: "The A page", data: { url: "https://example.com/a" } }]);
});

test("Firefox's text/x-moz-url titles each link; untitled ones are labelled with their URL", () => {
  const { drafts } = cardDrafts({
    uriList: "# two links\r\nhttps://a.example/\r\nhttps://b.example/x\r\n",
    mozUrl: "https://a.example/\nAlpha\nhttps://b.example/x\n",
  });
  assert.deepEqual(drafts, [
    { label: "Alpha", data: { url: "https://a.example/" } },
    { label: "https://b.example/x", data: { url: "https://b.example/x" } },
  ]);
});

test("one link and one anchor written otherwise are the same link", () => {
  const { drafts } = cardDrafts({ uriList: "https://example.com/a%20b", anchors: [{ href: "/a b", text: "Spaced" }] });
  assert.deepEqual(drafts, [{ label: "Spaced", data: { url: "https://example.com/a%20b" } }]);
});

test("links win over their text/plain, files over everything", () => {
  assert.equal(cardDrafts({ uriList: "https://x.example/", text: "something else" }).drafts[0].label, "https://x.example/");
  const { drafts } = cardDrafts({ files: ["notes.txt", "photo.jpg"], uriList: "file:///tmp/notes.txt", text: "/tmp/notes.txt" });
  assert.deepEqual(drafts, [{ label: "notes.txt" }, { label: "photo.jpg" }]);
});

test("uri-list comments and blank lines are skipped", () => {
  assert.deepEqual(uriListURLs("#c\n\n https://a/ \r\nhttps://b/"), ["https://a/", "https://b/"]);
});

test("labels are cut to the server's limit in UTF-8 bytes, never inside a character", () => {
  const long = "é".repeat(MAX_LABEL_BYTES); // two bytes each
  const [draft] = cardDrafts({ text: long }).drafts;
  assert.equal(new TextEncoder().encode(draft.label).length, MAX_LABEL_BYTES);
  assert.equal(cutToBytes("a😀b", 4), "a"); // the emoji is 4 bytes: it does not fit after "a"
  assert.equal(cutToBytes("a😀b", 5), "a😀");
  assert.equal(cutToBytes("short", 100), "short");
});

test("a URL too long to keep whole is left out of data; the card stays", () => {
  const url = `https://example.com/${"x".repeat(MAX_LABEL_BYTES)}`;
  const [draft] = cardDrafts({ uriList: url, anchors: [{ href: url, text: "Huge" }] }).drafts;
  assert.deepEqual(draft, { label: "Huge" });
});

test("a drop makes at most MAX_DROPPED_CARDS cards and says how many it left out", () => {
  const text = Array.from({ length: MAX_DROPPED_CARDS + 7 }, (_, at) => `line ${at}`).join("\n");
  const { drafts, leftOut } = cardDrafts({ text });
  assert.equal(drafts.length, MAX_DROPPED_CARDS);
  assert.equal(drafts[0].label, "line 0");
  assert.equal(leftOut, 7);
});

test("a drop's text is bounded so its one insert stays far below the largest message", () => {
  const line = "y".repeat(MAX_LABEL_BYTES);
  const { drafts, leftOut } = cardDrafts({ text: Array(40).fill(line).join("\n") });
  assert.equal(drafts.length, 16); // 16 × 16 KiB = 256 KiB
  assert.equal(leftOut, 24);
});
