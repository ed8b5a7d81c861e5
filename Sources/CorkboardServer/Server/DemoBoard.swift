import CorkboardModel

/// The board a new user sees on first start (skipped with `--no-demo`).
enum DemoBoard {
    static let board = Board(
        id: "demo", title: "Demo",
        collections: [
            BoardCollection(
                id: "todo", title: "To do",
                items: [
                    Item(id: "card-spec", label: "Read the protocol spec"),
                    Item(id: "card-bot", label: "Write a bot that reorders cards"),
                    Item(id: "card-deflate", label: "Turn on permessage-deflate"),
                    Item(id: "card-invite", label: "Open this board in a second window"),
                ]),
            BoardCollection(
                id: "doing", title: "Doing",
                items: [
                    Item(id: "card-drag", label: "Drag a card to another column"),
                    Item(id: "card-order", label: "Reorder within a column"),
                ]),
            BoardCollection(
                id: "done", title: "Done",
                items: [
                    Item(id: "card-start", label: "Start corkboard serve")
                ]),
        ])
}
