// The board page's drops from outside (web/js/dropped-cards.js): what dragged text, links and
// files become as cards. Run: node --test Tests/sdk/
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_DROPPED_CARDS, MAX_LABEL_BYTES, SHORT_LABEL, cardDrafts, carriesCards, cutToBytes, shortLabel, uriListURLs } from "../../web/js/dropped-cards.js";
import { webLink } from "../../web/js/web-link.js";

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

test("Firefox's text/x-moz-url titles each link; untitled ones are labelled with their host and path", () => {
  const { drafts } = cardDrafts({
    uriList: "# two links\r\nhttps://a.example/\r\nhttps://b.example/x\r\n",
    mozUrl: "https://a.example/\nAlpha\nhttps://b.example/x\n",
  });
  assert.deepEqual(drafts, [
    { label: "Alpha", data: { url: "https://a.example/" } },
    { label: "b.example/x", data: { url: "https://b.example/x" } },
  ]);
});

test("an untitled link's label is short, its whole URL kept in data", () => {
  const url = `https://example.com/reports/${"q".repeat(200)}?page=2`;
  const [draft] = cardDrafts({ uriList: url }).drafts;
  assert.equal(draft.label.length, SHORT_LABEL);
  assert.ok(draft.label.startsWith("example.com/reports/qqq") && draft.label.endsWith("…"), draft.label);
  assert.deepEqual(draft.data, { url });
  assert.equal(shortLabel("https://example.com/"), "example.com");
  assert.equal(shortLabel("http://example.com:8080/a%20b?x=1"), "example.com:8080/a b?x=1");
});

test("only web links are kept as links: another scheme is text on the card", () => {
  const { drafts } = cardDrafts({ uriList: "javascript:alert(1)\ndata:text/html,hi\nfile:///etc/passwd\nHTTPS://Example.com/A" });
  assert.deepEqual(drafts, [
    { label: "javascript:alert(1)" },
    { label: "data:text/html,hi" },
    { label: "file:///etc/passwd" },
    { label: "example.com/A", data: { url: "HTTPS://Example.com/A" } },
  ]);
  assert.equal(webLink("https://"), false);
  assert.equal(webLink(42), false);
  assert.equal(webLink(" https://example.com"), false);
});

test("one link and one anchor written otherwise are the same link", () => {
  const { drafts } = cardDrafts({ uriList: "https://example.com/a%20b", anchors: [{ href: "/a b", text: "Spaced" }] });
  assert.deepEqual(drafts, [{ label: "Spaced", data: { url: "https://example.com/a%20b" } }]);
});

test("links win over their text/plain, files over everything", () => {
  assert.equal(cardDrafts({ uriList: "https://x.example/", text: "something else" }).drafts[0].label, "x.example");
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
