#!/usr/bin/env python3
"""A small Corkboard bot: joins a board, prints it, and sorts one column alphabetically.

It is written on the Python client package (clients/python), which keeps the board's replica,
sends typed operations and resumes after a drop:

    pip install ./clients/python
    python3 examples/python/bot.py --url ws://127.0.0.1:8080/ws --board demo --column todo

On a server with tokens (a token file or signed tokens, docs/security.md), give the bot its
token with --token or the CORKBOARD_TOKEN variable (kept off the command line, which other users
of the machine can see); it goes in `hello`.

The sort is a series of anchor moves ("put this card before that one"). The client applies
every `committed` event to its replica, so the bot sees other people's moves as it goes; if
someone else reorders the column meanwhile, it simply plans its next move from the new order.
With --first it then moves the sorted column to the front of the board (a `collection.move`,
which the server resolves like a card's move if others reorder the columns meanwhile).
Exit status: 0 sorted, 1 refused by the server, 2 cannot connect.
"""

import argparse
import asyncio
import os
import sys

from corkboard import Board, CannotConnect, Client, Committed, Move, MoveCollections, Refused, Rejected


def column_items(board: Board, column_id: str) -> list[dict[str, str]]:
    column = next((c for c in board["collections"] if c["id"] == column_id), None)
    if column is None:
        raise LookupError(f'there is no column "{column_id}"')
    return [{"id": i["id"], "label": i["label"]} for i in column["items"]]


async def sort_column(client: Client, column_id: str) -> int:
    """Alphabetical by label: repeatedly take the first card that is out of place and put it
    before the card that should follow it. Returns how many moves it took."""
    moves = 0
    for _ in range(10_000):  # bounded: a column never needs more moves than it has cards, twice
        items = column_items(client.board, column_id)
        wanted = sorted(items, key=lambda i: (i["label"].casefold(), i["id"]))
        position = next((n for n, (have, want) in enumerate(zip(items, wanted)) if have["id"] != want["id"]), None)
        if position is None:
            return moves
        outcome = await client.send(Move([wanted[position]["id"]], column_id, before=items[position]["id"]))
        if isinstance(outcome, Rejected):
            if outcome.transient:
                await asyncio.sleep(0.2)  # someone holds the card or locked the board: plan again
                continue
            raise RuntimeError(f"{outcome.code}: {outcome.message}")
        if isinstance(outcome, Committed):
            moves += 1
    raise RuntimeError("the column kept changing under the bot")


def show(board: Board) -> None:
    print(f"{board['title']} ({board['id']})")
    for column in board["collections"]:
        print(f"  {column['title']}:")
        for item in column["items"]:
            print(f"    - {item['label']}")


async def main() -> int:
    parser = argparse.ArgumentParser(description="Join a Corkboard board and sort one column alphabetically.")
    parser.add_argument("--url", default="ws://127.0.0.1:8080/ws")
    parser.add_argument("--board", default="demo")
    parser.add_argument("--column", default="todo")
    parser.add_argument("--name", default="sorter-bot")
    parser.add_argument("--first", action="store_true", help="then move the column to the front of the board")
    parser.add_argument("--token", default=os.environ.get("CORKBOARD_TOKEN"), help="the bot's token (default: $CORKBOARD_TOKEN)")
    arguments = parser.parse_args()
    client = Client(arguments.url, arguments.board, name=arguments.name, token=arguments.token)
    try:
        await client.connect()
    except CannotConnect as error:
        print(f"bot: cannot connect to {arguments.url}: {error}", file=sys.stderr)
        return 2
    except Refused as error:
        print(f"bot: {error}", file=sys.stderr)
        return 1
    try:
        show(client.board)
        print(f"{client.count} on the board, the bot included")
        moves = await sort_column(client, arguments.column)
        if arguments.first:
            first = client.board["collections"][0]["id"]
            outcome = await client.send(MoveCollections([arguments.column], before=first))
            if isinstance(outcome, Rejected):
                raise RuntimeError(f"{outcome.code}: {outcome.message}")
        print(f"sorted {arguments.column} with {moves} move{'s' if moves != 1 else ''}; the board is now at seq {client.seq}:")
        show(client.board)
        return 0
    except (LookupError, RuntimeError) as error:
        print(f"bot: {error}", file=sys.stderr)
        return 1
    finally:
        await client.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
