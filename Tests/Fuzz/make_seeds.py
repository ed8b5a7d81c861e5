#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (Tests/Fuzz/corpus/<target>/).

Seeds are small, meaningful inputs in each target's input format (see the header comment of
each Tests/Fuzz/<target>/main.swift): the fuzzer mutates from them. Run it again after
changing a target's input format; the files are committed. Files named regression-* are
reproducers of past findings, kept so every fuzzing run replays them first.
"""
import json
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def raw_deflate(message, wbits=15, final=False):
    """permessage-deflate's compressed form: raw deflate, sync-flushed, tail removed."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -wbits)
    data = compressor.compress(message)
    if final:
        return data + compressor.flush(zlib.Z_FINISH)
    data += compressor.flush(zlib.Z_SYNC_FLUSH)
    assert data.endswith(b"\x00\x00\xff\xff")
    return data[:-4]


# HTTP: one choice byte (bit 7: small limits; the rest: how the bytes are cut), then bytes.
def http_seeds():
    requests = {
        "get": b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "post-body": b"POST /api/boards HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 27\r\n\r\n{\"id\":\"b1\",\"title\":\"Board\"}",
        "upgrade": b"GET /ws HTTP/1.1\r\nHost: localhost:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                   b"Sec-WebSocket-Protocol: corkboard.v1\r\n"
                   b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                   b"Origin: http://localhost:8080\r\n\r\n",
        "pipelined": b"GET /a HTTP/1.1\r\nHost: h\r\n\r\nHEAD /b?x=1 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        "http10": b"GET /index.html HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "absolute-form": b"GET http://example.com:80/path/x?q=%20a+b HTTP/1.1\r\nHost: example.com\r\n\r\n",
        "expect-continue": b"PUT /api/x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello",
        "bare-lf": b"GET /x HTTP/1.1\nHost: h\nAccept-Encoding: gzip, br\n\n",
        "leading-crlf": b"\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n",
        "query": b"GET /api/boards/b1/ops?since=12&limit=%31%30 HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"abc\"\r\n\r\n",
        "chunked-refused": b"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "options-star": b"OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n",
    }
    for name, request in requests.items():
        write("HTTPRequestFuzz", name, bytes([0x11]) + request)
        write("HTTPRequestFuzz", name + "-small-limits", bytes([0x83]) + request)


# WebSocket frames: one choice byte (bit 0 client, bit 1 deflate, bit 2 small limit,
# bits 3-7 cuts), then the peer's bytes.
def frame(opcode, payload=b"", fin=True, rsv1=False, mask=b"\x37\xfa\x21\x3d"):
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    mask_bit = 0x80 if mask else 0
    if len(payload) <= 125:
        header = bytes([first, mask_bit | len(payload)])
    elif len(payload) <= 0xFFFF:
        header = bytes([first, mask_bit | 126]) + struct.pack(">H", len(payload))
    else:
        header = bytes([first, mask_bit | 127]) + struct.pack(">Q", len(payload))
    if not mask:
        return header + payload
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def websocket_seeds():
    hello = json.dumps({"type": "hello", "board": "demo", "name": "Ada"}).encode()
    streams = {
        "text": frame(1, hello),
        "binary": frame(2, bytes(range(40))),
        "ping-pong": frame(9, b"are you there") + frame(10, b"yes"),
        "close-reason": frame(8, struct.pack(">H", 1000) + "bye ✓".encode()),
        "close-empty": frame(8),
        "fragmented": frame(1, b"frag", fin=False) + frame(9, b"p") + frame(0, b"mented ", fin=False)
                      + frame(0, "text é".encode()),
        "length-126": frame(2, bytes(200)),
        "utf8-split": frame(1, "€".encode()[:2], fin=False) + frame(0, "€".encode()[2:]),
        "two-messages": frame(1, b"one") + frame(1, b"two") + frame(8, struct.pack(">H", 1001)),
    }
    # A 64-bit length field for a small payload (legal, if wasteful).
    payload = b"64-bit length"
    mask = b"\x01\x02\x03\x04"
    streams["length-127"] = bytes([0x82, 0x80 | 127]) + struct.pack(">Q", len(payload)) + mask + \
        bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    for name, stream in streams.items():
        write("WebSocketFrameFuzz", "server-" + name, bytes([0x28]) + stream)
    # What a client receives: the same, unmasked.
    for name in ("text", "ping-pong", "close-reason", "fragmented"):
        unmasked = {
            "text": frame(1, hello, mask=None),
            "ping-pong": frame(9, b"hi", mask=None) + frame(10, mask=None),
            "close-reason": frame(8, struct.pack(">H", 1000) + b"bye", mask=None),
            "fragmented": frame(1, b"a", fin=False, mask=None) + frame(0, b"b", mask=None),
        }[name]
        write("WebSocketFrameFuzz", "client-" + name, bytes([0x31]) + unmasked)
    # permessage-deflate: compressed messages (RSV1), one in two frames, and a deflate bomb
    # for the small limit.
    long_text = json.dumps({"type": "insert", "opId": "o1", "baseSeq": 1,
                            "items": [{"id": "i%d" % i, "label": "card %d" % i} for i in range(20)],
                            "destination": {"collection": "todo", "before": None}}).encode()
    compressed = raw_deflate(long_text)
    write("WebSocketFrameFuzz", "deflate-text", bytes([0x22]) + frame(1, compressed, rsv1=True))
    half = len(compressed) // 2
    write("WebSocketFrameFuzz", "deflate-fragmented",
          bytes([0x4A]) + frame(1, compressed[:half], fin=False, rsv1=True) + frame(0, compressed[half:]))
    write("WebSocketFrameFuzz", "deflate-bomb", bytes([0x26]) + frame(2, raw_deflate(bytes(100000)), rsv1=True))
    write("WebSocketFrameFuzz", "client-deflate",
          bytes([0x33]) + frame(1, raw_deflate(b"hello hello hello"), rsv1=True, mask=None))


# Deflate: a choice byte (bit 0 round trip, bits 1-3 window bits - 8, bit 4 no context
# takeover, bits 5-7 cuts), a limit byte ((n + 1) * 64), then data.
def deflate_seeds():
    text = json.dumps({"type": "committed", "seq": 42, "op": {"type": "move", "sources": ["i3", "i4"],
                       "destination": {"collection": "done", "before": "i9"}}}).encode()
    for bits in (8, 9, 10, 15):
        choice = (bits - 8) << 1
        write("WebSocketDeflateFuzz", "inflate-w%d" % bits, bytes([choice | 0x40, 0x20]) + raw_deflate(text, max(bits, 9)))
    write("WebSocketDeflateFuzz", "inflate-bfinal", bytes([0x0E, 0x20]) + raw_deflate(text, final=True))
    write("WebSocketDeflateFuzz", "inflate-stored", bytes([0x0E, 0x20]) + raw_deflate(b"", 15) + b"\x00\x05\x00\xfa\xffhello")
    write("WebSocketDeflateFuzz", "inflate-bomb", bytes([0x0E, 0x01]) + raw_deflate(bytes(50000)))
    write("WebSocketDeflateFuzz", "inflate-bomb-pieces", bytes([0xEE, 0x03]) + raw_deflate(b"ab" * 20000))
    write("WebSocketDeflateFuzz", "inflate-no-context", bytes([0x1E, 0x20]) + raw_deflate(text))
    messages = b"\xff".join([text, b"", text[:20], b"\x00" * 300, "ünïcödé".encode()])
    for bits in (8, 9, 10, 15):
        choice = 1 | (bits - 8) << 1
        write("WebSocketDeflateFuzz", "roundtrip-w%d" % bits, bytes([choice, 0]) + messages)
        write("WebSocketDeflateFuzz", "roundtrip-w%d-no-context" % bits, bytes([choice | 0x10 | 0x60, 0]) + messages)


# Client messages: plain JSON text, one per file; the engine target takes lines.
CLIENT_MESSAGES = {
    "hello": {"type": "hello", "board": "demo", "name": "Ada"},
    "hello-resume": {"type": "hello", "board": "demo", "name": "Ada", "token": "t0k",
                     "resume": {"epoch": "e1", "seq": 42}},
    "drag-start": {"type": "drag.start", "items": ["i3", "i4"]},
    "drag-over": {"type": "drag.over", "collection": "done", "index": 2},
    "drag-end": {"type": "drag.end"},
    "move": {"type": "move", "opId": "k3f9x-17", "baseSeq": 5, "sources": ["i1", "i2"],
             "destination": {"collection": "done", "before": "i3"}},
    "move-end": {"type": "move", "opId": "m2", "baseSeq": 5, "sources": ["i3"],
                 "destination": {"collection": "todo", "before": None}},
    "move-offsets": {"type": "move", "opId": "m3", "baseSeq": 5, "collection": "todo", "fromOffsets": [0, 1],
                     "toOffset": 1, "toCollection": "done"},
    "insert": {"type": "insert", "opId": "n1", "baseSeq": 5,
               "items": [{"id": "i20", "label": "New", "data": {"colour": "red", "n": [1, 2.5, None, True]}}],
               "destination": {"collection": "todo", "before": "i2"}},
    "delete": {"type": "delete", "opId": "d1", "baseSeq": 5, "items": ["i3"]},
    "update-item": {"type": "update", "opId": "u1", "baseSeq": 5, "item": "i1", "label": "New text", "data": {}},
    "update-data-null": {"type": "update", "opId": "u2", "baseSeq": 5, "item": "i2", "data": None},
    "rename-collection": {"type": "update", "opId": "u3", "collection": "todo", "title": "Backlog"},
    "collection-add": {"type": "collection.add", "opId": "c1", "collection": {"id": "later", "title": "Later"},
                       "before": "done"},
    "collection-remove": {"type": "collection.remove", "opId": "c2", "collection": "empty"},
    "lock": {"type": "lock", "opId": "l1", "locked": True},
    "bad-field": {"type": "move", "opId": "b1", "sources": "i1"},
    "unknown-type": {"type": "dance"},
}


def client_message_seeds():
    for name, message in CLIENT_MESSAGES.items():
        write("ClientMessageFuzz", name, json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode())
    write("ClientMessageFuzz", "not-an-object", b"[1,2,3]")
    write("ClientMessageFuzz", "escapes", b'{"type":"hello","board":"d\\u00e9mo","name":"\\ud83d\\ude00\\n"}')


def engine_seeds():
    line = lambda m: json.dumps(m, separators=(",", ":")).encode()
    scripts = {
        "every-operation": [CLIENT_MESSAGES[k] for k in ("move", "move-end", "move-offsets", "insert", "delete",
                                                          "update-item", "update-data-null", "rename-collection",
                                                          "collection-add", "collection-remove")],
        "owner-lock": [{"type": "hello", "board": "fuzz", "name": "owner"}, CLIENT_MESSAGES["lock"],
                       CLIENT_MESSAGES["move"], {"type": "lock", "opId": "l2", "locked": False}, CLIENT_MESSAGES["move"]],
        "viewer": [{"type": "hello", "board": "fuzz", "name": "viewer"}, CLIENT_MESSAGES["delete"]],
        "leases": [{"type": "hello", "board": "fuzz", "name": "ed"}, {"type": "drag.start", "items": ["i1"]},
                   {"type": "hello", "board": "fuzz", "name": "edit"}, CLIENT_MESSAGES["move"],
                   {"type": "hello", "board": "fuzz", "name": "ed"}, {"type": "drag.end"}, CLIENT_MESSAGES["move"]],
        "stale-base": [CLIENT_MESSAGES["move"], dict(CLIENT_MESSAGES["move-offsets"], opId="m9", baseSeq=5),
                       dict(CLIENT_MESSAGES["delete"], baseSeq=2)],
        "repeat": [CLIENT_MESSAGES["insert"], CLIENT_MESSAGES["insert"], CLIENT_MESSAGES["delete"]],
    }
    for name, messages in scripts.items():
        write("BoardEngineFuzz", name, b"\n".join(line(m) for m in messages) + b"\n")


# Archive import: one choice byte (bit 0: small limits, 3 items and 2 collections), then the
# file as `corkboard export` writes it, or as a hand (or an attacker) might.
def archive_seeds():
    def archive(seq=7, epoch="0123456789abcdef", collections=None, board_id="seeded", **extra):
        if collections is None:
            collections = [{"id": "todo", "title": "To do", "items": [
                {"id": "a", "label": "A", "data": {"n": 1, "tags": ["x", "y"], "nested": {"k": None}}},
                {"id": "b", "label": "B"}]}, {"id": "done", "title": "Done", "items": []}]
        value = {"format": 1, "seq": seq, "board": {"id": board_id, "title": "Seeded", "locked": False,
                                                     "collections": collections}}
        if epoch is not None:
            value["epoch"] = epoch
        value.update(extra)
        return json.dumps(value, indent=2, sort_keys=True).encode()

    def raw_seq(text):
        return archive(seq=424242).replace(b"424242", text)

    items = lambda n: [{"id": "i%d" % i, "label": "I%d" % i} for i in range(n)]
    seeds = {
        "exported": archive(),
        "no-epoch": archive(epoch=None),
        "empty-board": archive(seq=0, collections=[]),
        "locked": archive().replace(b'"locked": false', b'"locked": true'),
        "last-seq": archive(seq=2**53 - 1),
        "seq-2-53": archive(seq=2**53),
        "seq-int-max": archive(seq=2**63 - 1),
        "seq-2-64": raw_seq(b"18446744073709551616"),
        "seq-fraction": raw_seq(b"2.5"),
        "seq-huge": raw_seq(b"1e400"),
        "seq-negative": archive(seq=-1),
        "format-2": archive(format=2),
        "duplicate-ids": archive(collections=[{"id": "c", "title": "C", "items": [{"id": "a", "label": "A"}]},
                                              {"id": "c", "title": "C", "items": [{"id": "a", "label": "A"}]}]),
        "nul-board-id": archive(board_id="a\u0000b"),
        "empty-epoch": archive(epoch=""),
        "four-items": archive(collections=[{"id": "c", "title": "C", "items": items(4)}]),
        "three-collections": archive(collections=[{"id": "c%d" % i, "title": "C", "items": []} for i in range(3)]),
        "deep-data": archive().replace(b'"n": 1', b'"n": ' + b"[" * 600 + b"]" * 600),
        "deep-brackets-in-strings": archive().replace(b'"A"', b'"' + b"[{" * 300 + b'"'),
        "missing-board": b'{"format": 1, "seq": 0}',
    }
    for name, text in seeds.items():
        write("ArchiveImportFuzz", name, bytes([0]) + text)
        write("ArchiveImportFuzz", name + "-small-limits", bytes([1]) + text)


if __name__ == "__main__":
    # Rewrite the seeds; keep the reproducers of past findings (regression-*), which
    # come from the fuzzer, not from here.
    for target in os.listdir(ROOT) if os.path.isdir(ROOT) else []:
        for name in os.listdir(os.path.join(ROOT, target)):
            if not name.startswith("regression-"):
                os.remove(os.path.join(ROOT, target, name))
    http_seeds()
    websocket_seeds()
    deflate_seeds()
    client_message_seeds()
    engine_seeds()
    archive_seeds()
    for target in sorted(os.listdir(ROOT)):
        print(target, len(os.listdir(os.path.join(ROOT, target))), "seeds")
