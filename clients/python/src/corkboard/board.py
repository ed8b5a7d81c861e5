"""The board as the wire carries it (docs/protocol.md#1-the-model), as typed dictionaries: a
board from `welcome` is used as it is, with no conversion, so it compares equal to the JSON the
server and the shared fixtures hold."""

from typing import Any, NotRequired, TypedDict


class FolderFlag(TypedDict):
    """What makes an item a folder; `accepts` says whether items may enter it from elsewhere."""

    accepts: bool


class Item(TypedDict):
    id: str
    label: str
    data: NotRequired[dict[str, Any]]
    folder: NotRequired[FolderFlag]


class Collection(TypedDict):
    id: str
    title: str
    items: list[Item]


class Board(TypedDict):
    id: str
    title: str
    locked: bool
    collections: list[Collection]
    # A folder's items by the folder's id; absent when the board has no folder.
    folders: NotRequired[dict[str, list[Item]]]


class Destination(TypedDict):
    """Where items land: before `before` in `collection` (a column or a folder; None: the end)."""

    collection: str
    before: NotRequired[str | None]


def copy_board(board: Board) -> Board:
    """A copy whose lists and items are new (an item's `data` is shared: it is only ever
    replaced, never changed in place), so a board handed out stays as it was."""
    copy: Board = {
        "id": board["id"],
        "title": board["title"],
        "locked": board["locked"],
        "collections": [
            {"id": c["id"], "title": c["title"], "items": [i.copy() for i in c["items"]]}
            for c in board["collections"]
        ],
    }
    if "folders" in board:
        copy["folders"] = {f: [i.copy() for i in items] for f, items in board["folders"].items()}
    return copy


def find_item(board: Board, item_id: str) -> tuple[list[Item], int] | None:
    """The list holding the item (a column's or a folder's) and its index there."""
    for items in all_lists(board):
        for index, item in enumerate(items):
            if item["id"] == item_id:
                return items, index
    return None


def all_lists(board: Board) -> list[list[Item]]:
    """Every list of the board: the columns' items, then the folders'."""
    return [c["items"] for c in board["collections"]] + list(board.get("folders", {}).values())


def items_of(board: Board, list_id: str) -> list[Item] | None:
    """The items of a column or of a folder (both are named by id in a destination)."""
    for collection in board["collections"]:
        if collection["id"] == list_id:
            return collection["items"]
    return board.get("folders", {}).get(list_id)


def enclosing_folders(board: Board, list_id: str) -> list[str]:
    """The folders around a list, innermost first: none for a column; for a folder's items
    the folder and every folder that holds it."""
    folders = board.get("folders", {})
    chain: list[str] = []
    current: str | None = list_id if list_id in folders else None
    while current is not None and current not in chain:
        chain.append(current)
        outer = _list_id_holding(board, current)
        current = outer if outer in folders else None
    return chain


def _list_id_holding(board: Board, item_id: str) -> str | None:
    for collection in board["collections"]:
        if any(i["id"] == item_id for i in collection["items"]):
            return collection["id"]
    for folder_id, items in board.get("folders", {}).items():
        if any(i["id"] == item_id for i in items):
            return folder_id
    return None


def ordered_item_ids(board: Board) -> list[str]:
    """The item ids in reading order: column by column, each folder's items right after it."""
    ids: list[str] = []

    def add(items: list[Item], depth: int) -> None:
        for item in items:
            ids.append(item["id"])
            # Folders nest at most 16 levels (docs/protocol.md#1-the-model).
            if "folder" in item and depth < 16:
                add(board.get("folders", {}).get(item["id"], []), depth + 1)

    for collection in board["collections"]:
        add(collection["items"], 1)
    return ids
