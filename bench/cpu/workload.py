#!/usr/bin/env python3
"""Fixed workloads for measuring a server's CPU per delivery and per join (issue #36).

usage: workload.py --port P joins  [--joins 1000] [--concurrency 50]
       workload.py --port P fanout [--members 500] [--moves 100]

Both run on a new board of 3 collections × 50 items, created with POST /api/boards, so any
server that speaks the peers' subset (bench/peers/README.md) takes them: Corkboard and every
peer. The work is the same every run (no timing decides anything), so the instructions a
server spends on it (valgrind --tool=callgrind) are repeatable whatever the machine's load;
bench/cpu/profile.sh runs the server under callgrind or perf and drives these.

- joins: JOINS clients, CONCURRENCY at a time, each connects to /ws, sends hello, waits for
  its welcome (the whole 3 × 50 board) and closes. Nobody else is on the board, so a join
  costs its own connection, hello, welcome and close, and no announcements.
- fanout: MEMBERS clients join and stay; then one more (the mover) sends MOVES moves one at a
  time, each after its previous committed, always moving item i0 to the next collection.
  Every member must receive every committed exactly once and in seq order (checked), so the
  server does MEMBERS × MOVES deliveries (plus the mover's own).

Two fanout runs that differ only in MOVES differ only in deliveries: the difference of their
instruction counts over MEMBERS × (the difference of MOVES) is the cost of one delivery.
Prints one line of JSON with what was done. Exit status 0 when everything arrived.
"""

import argparse
import asyncio
import json
import os
import re
import sys
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
import check  # noqa: E402  (the peers' check: its RFC 6455 client on raw sockets)
from check import TEXT, RawClient, expect  # noqa: E402

SUBPROTOCOL = "corkboard.v1"
COLLECTIONS, ITEMS = 3, 50
SEQ = re.compile(rb'"seq":(\d+)')


def board_body(board_id):
    return {
        "id": board_id, "title": "CPU workload",
        "collections": [
            {"id": f"c{c}", "title": f"C{c}",
             "items": [{"id": f"i{c * ITEMS + n}", "label": f"Card {c * ITEMS + n}"} for n in range(ITEMS)]}
            for c in range(COLLECTIONS)
        ],
    }


def create_board(port):
    board_id = f"cpu-{uuid.uuid4().hex[:8]}"
    status, _ = check.http_request(port, "POST", "/api/boards", json.dumps(board_body(board_id)))
    expect(status == 201, f"POST /api/boards answered {status}")
    return board_id


async def join(port, board, name):
    socket = await RawClient.connect("127.0.0.1", port, "/ws", SUBPROTOCOL)
    await socket.send(TEXT, json.dumps({"type": "hello", "board": board, "name": name}))
    while True:
        opcode, raw = await socket.recv()
        if b'"type":"welcome"' in raw:
            return socket


async def joins(port, count, concurrency):
    board = create_board(port)
    done = 0

    async def one(n):
        socket = await join(port, board, f"j{n}")
        await socket.close()

    for start in range(0, count, concurrency):
        await asyncio.gather(*(one(n) for n in range(start, min(count, start + concurrency))))
        done = min(count, start + concurrency)
    return {"workload": "joins", "joins": done, "board": f"{COLLECTIONS}x{ITEMS}"}


async def fanout(port, member_count, moves):
    board = create_board(port)
    members = []
    for start in range(0, member_count, 50):
        members += await asyncio.gather(*(join(port, board, f"m{n}") for n in range(start, min(member_count, start + 50))))
    seqs = [[] for _ in members]
    finished = asyncio.Event()
    complete = 0

    async def read(index, socket):
        nonlocal complete
        while len(seqs[index]) < moves:
            _, raw = await socket.recv()
            if b'"type":"committed"' in raw:
                seqs[index].append(int(SEQ.search(raw).group(1)))
        complete += 1
        if complete == len(members):
            finished.set()

    readers = [asyncio.ensure_future(read(i, s)) for i, s in enumerate(members)]
    mover = await join(port, board, "mover")
    collection = 0
    for n in range(moves):
        collection = (collection + 1) % COLLECTIONS
        await mover.send(TEXT, json.dumps({
            "type": "move", "opId": f"m-{n}", "baseSeq": n, "sources": ["i0"],
            "destination": {"collection": f"c{collection}", "before": None},
        }))
        while True:
            _, raw = await mover.recv()
            if b'"type":"committed"' in raw:
                expect(int(SEQ.search(raw).group(1)) == n + 1, f"the mover's committed {n + 1} came as {raw[:120]!r}")
                break
            expect(b'"type":"rejected"' not in raw, f"move {n} rejected: {raw[:200]!r}")
    await finished.wait()
    for task in readers:
        await task
    expected = list(range(1, moves + 1))
    wrong = sum(1 for s in seqs if s != expected)
    expect(wrong == 0, f"{wrong} members did not get seq 1..{moves} exactly once in order")
    for socket in members + [mover]:
        socket.writer.close()
    return {"workload": "fanout", "members": len(members), "moves": moves, "deliveries": len(members) * moves}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    sub = parser.add_subparsers(dest="workload", required=True)
    j = sub.add_parser("joins")
    j.add_argument("--joins", type=int, default=1000)
    j.add_argument("--concurrency", type=int, default=50)
    f = sub.add_parser("fanout")
    f.add_argument("--members", type=int, default=500)
    f.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    # Under callgrind the server runs some 50× slower than natively: wait for it.
    check.TIMEOUT = 600.0
    if args.workload == "joins":
        result = asyncio.run(joins(args.port, args.joins, args.concurrency))
    else:
        result = asyncio.run(fanout(args.port, args.members, args.moves))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
