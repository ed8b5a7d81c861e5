import CorkboardModel
import CorkboardWire
import Foundation
import Testing

/// The body of `POST /api/boards` (docs/protocol.md#8-http-api): strict, and every error
/// names the field by its path in the body.
struct NewBoardBodyTests {
    static func refusal(_ body: String) -> String? {
        if case .failure(let error) = WireFormat.decodeNewBoard(Data(body.utf8)) { error.message } else { nil }
    }

    static let items = #"[{"id":"a","label":"A"},{"id":"b","label":"B"},{"id":"x","label":"X","data":{"n":1}}"#

    @Test func unknownFieldsAreRefusedByTheirPath() {
        #expect(Self.refusal(#"{"id":"t","title":"T","collections":[],"lockd":true}"#) == #"unknown field "lockd""#)
        #expect(Self.refusal(#"{"id":"t","title":"T","collections":[{"id":"c","title":"C","colour":"red"}]}"#) == #"unknown field "collections[0].colour""#)
        let deep =
            #"{"id":"t","title":"T","collections":[{"id":"c","title":"C"},{"id":"d","title":"D","items":\#(Self.items),{"id":"y","label":"Y","colour":"red"}]}]}"#
        #expect(Self.refusal(deep) == #"unknown field "collections[1].items[3].colour""#)
    }

    @Test func typeErrorsNameTheirPath() {
        #expect(Self.refusal(#"{"id":"t","title":"T","collections":[{"id":"c","title":"C"},7]}"#) == #"field "collections[1]" must be an object"#)
        #expect(Self.refusal(#"{"id":"t","title":"T","collections":[{"id":"c","title":3}]}"#) == #"field "collections[0].title" must be a string"#)
        #expect(
            Self.refusal(#"{"id":"t","title":"T","collections":[{"id":"c","title":"C","items":\#(Self.items),{"id":"y"}]}]}"#)
                == #"missing field "collections[0].items[3].label""#)
        #expect(
            Self.refusal(#"{"id":"t","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"y","label":"Y","data":[]}]}]}"#)
                == #"field "collections[0].items[0].data" must be an object or null"#)
        #expect(Self.refusal(#"{"id":"t","title":"T","collections":[],"locked":"yes"}"#) == #"field "locked" must be true or false"#)
        #expect(Self.refusal(#"{"title":"T","collections":[]}"#) == #"missing field "id""#)
    }

    @Test func theBoardsOwnProblemsNameTheirPath() throws {
        let body =
            #"{"id":"t","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"x","label":"1"}]},{"id":"d","title":"D","items":[{"id":"y","label":"2"},{"id":"x","label":"3"}]},{"id":"c","title":"E"}]}"#
        let board = try WireFormat.decodeNewBoard(Data(body.utf8)).get()
        #expect(
            board.validationProblems() == [
                "collections[1].items[1].id: item id x appears twice (first at collections[0].items[0].id)",
                "collections[2].id: collection id c appears twice (first at collections[0].id)",
            ])
        let big = Board(id: "b", title: "B", collections: [BoardCollection(id: "c", title: "C", items: [Item(id: "i", label: "I")])])
        #expect(
            BoardSizeLimits(maximumItems: 0, maximumCollections: 0).problems(of: big) == [
                "collections: a board holds at most 0 items; this one has 1", "collections: a board holds at most 0 collections; this one has 1",
            ])
    }

    @Test func aGoodBodyStillDecodes() throws {
        let board = try WireFormat.decodeNewBoard(
            Data(#"{"id":"t","title":"T","locked":true,"collections":[{"id":"c","title":"C","items":\#(Self.items)]}]}"#.utf8)
        ).get()
        #expect(board.locked && board.collections[0].items.map(\.id) == ["a", "b", "x"])
        #expect(board.collections[0].items[2].data == ["n": .number(1)])
    }

    @Test func foldersComeInTheirOwnObject() throws {
        let body =
            #"{"id":"t","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"f","label":"F","folder":{"accepts":false}}]}],"folders":{"f":[{"id":"g","label":"G","folder":{}},{"id":"a","label":"A"}],"g":[]}}"#
        let board = try WireFormat.decodeNewBoard(Data(body.utf8)).get()
        #expect(board.collections[0].items[0].folder == Folder(accepts: false))
        #expect(board.folders["f"]?.map(\.id) == ["g", "a"])
        #expect(board.folders["f"]?[0].folder == Folder(accepts: true), "a folder without accepts accepts drops")
        #expect(board.validationProblems().isEmpty)
        #expect(
            Self.refusal(#"{"id":"t","title":"T","collections":[],"folders":{"f":[{"id":"a","label":"A","colour":1}]}}"#)
                == #"unknown field "folders.f[0].colour""#)
        #expect(
            Self.refusal(#"{"id":"t","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"f","label":"F","folder":{"open":true}}]}]}"#)
                == #"unknown field "collections[0].items[0].folder.open""#)
        #expect(Self.refusal(#"{"id":"t","title":"T","collections":[],"folders":[]}"#) == #"field "folders" must be an object"#)
        #expect(Self.refusal(#"{"id":"t","title":"T","collections":[],"folders":null}"#) == #"field "folders" must be an object"#)
        #expect(
            Self.refusal(#"{"id":"t","title":"T","collections":[{"id":"c","title":"C","items":[{"id":"f","label":"F","folder":null}]}]}"#)
                == #"field "collections[0].items[0].folder" must be an object"#)
    }
}
