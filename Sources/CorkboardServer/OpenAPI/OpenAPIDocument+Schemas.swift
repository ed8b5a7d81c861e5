extension OpenAPIDocument {
    /// The shapes of the bodies the routes take and give. Ids, texts, seqs and data are
    /// described once (`Id`, `Text`, `Seq`, `Data`) and referred to everywhere: the board's
    /// here, the operations and their outcomes in +OperationSchemas.swift.
    static let schemas =
        "{\n" + [boardSchemas, operationSchemas, accessSchemas, adminSchemas, webhookSchemas, archiveSchemas].joined(separator: ",\n") + "\n}"

    /// Ids, texts, seqs, data, the error body, and boards with their collections, items and
    /// folders, as read and as created: members of `schemas`.
    static let boardSchemas = #"""
          "Id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "description": "1…128 bytes of UTF-8 in Unicode NFC (compared as bytes)"
          },
          "Text": {
            "type": "string",
            "maxLength": 16384,
            "description": "at most 16 KiB of UTF-8"
          },
          "Seq": {
            "type": "integer",
            "minimum": 0,
            "maximum": 9007199254740991,
            "description": "a board's seq: a whole number from 0 to 2^53 − 1"
          },
          "Data": {
            "type": "object",
            "description": "any JSON object: at most 64 KiB, nesting at most 506 levels"
          },
          "Error": {
            "type": "object",
            "description": "Every failure that is not an operation's outcome.",
            "required": [
              "error",
              "message"
            ],
            "additionalProperties": false,
            "properties": {
              "error": {
                "type": "string",
                "description": "the status's reason, lower case: bad request, forbidden, not found, …"
              },
              "message": {
                "type": "string",
                "description": "for people; may change"
              }
            }
          },
          "Item": {
            "type": "object",
            "required": [
              "id",
              "label"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "label": {
                "$ref": "#/components/schemas/Text"
              },
              "data": {
                "$ref": "#/components/schemas/Data"
              },
              "folder": {
                "$ref": "#/components/schemas/Folder"
              }
            }
          },
          "Folder": {
            "type": "object",
            "description": "Makes an item a folder: its items are the board's folders[id], and a destination's collection may name it. accepts (default true): whether items may be moved or inserted into it from elsewhere.",
            "additionalProperties": false,
            "properties": {
              "accepts": {
                "type": "boolean"
              }
            }
          },
          "Folders": {
            "type": "object",
            "description": "The items inside each folder, by the folder's item id; absent when the board has no folder.",
            "additionalProperties": {
              "type": "array",
              "items": {
                "$ref": "#/components/schemas/Item"
              }
            }
          },
          "Collection": {
            "type": "object",
            "required": [
              "id",
              "title",
              "items"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "title": {
                "$ref": "#/components/schemas/Text"
              },
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Item"
                }
              }
            }
          },
          "BoardDocument": {
            "type": "object",
            "description": "A board at its durable seq.",
            "required": [
              "id",
              "title",
              "locked",
              "collections",
              "seq",
              "epoch"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "title": {
                "$ref": "#/components/schemas/Text"
              },
              "locked": {
                "type": "boolean"
              },
              "collections": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Collection"
                }
              },
              "folders": {
                "$ref": "#/components/schemas/Folders"
              },
              "seq": {
                "$ref": "#/components/schemas/Seq"
              },
              "epoch": {
                "type": "string",
                "description": "changes when the board's history is replaced (an import)"
              }
            }
          },
          "BoardSummary": {
            "type": "object",
            "required": [
              "id",
              "title",
              "seq"
            ],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "title": {
                "$ref": "#/components/schemas/Text"
              },
              "seq": {
                "$ref": "#/components/schemas/Seq"
              }
            }
          },
          "BoardRename": {
            "type": "object",
            "description": "The board's new title; any other field is refused (400).",
            "additionalProperties": false,
            "required": [
              "title"
            ],
            "properties": {
              "title": {
                "$ref": "#/components/schemas/Text"
              }
            }
          },
          "BoardList": {
            "type": "object",
            "required": [
              "boards"
            ],
            "properties": {
              "boards": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/BoardSummary"
                }
              },
              "next": {
                "type": "string",
                "description": "present when there is a next page: its cursor"
              }
            }
          },
          "NewItem": {
            "type": "object",
            "required": [
              "id",
              "label"
            ],
            "additionalProperties": false,
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "label": {
                "$ref": "#/components/schemas/Text"
              },
              "data": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Data"
                  },
                  {
                    "type": "null"
                  }
                ]
              },
              "folder": {
                "$ref": "#/components/schemas/Folder"
              }
            }
          },
          "NewCollection": {
            "type": "object",
            "required": [
              "id",
              "title"
            ],
            "additionalProperties": false,
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "title": {
                "$ref": "#/components/schemas/Text"
              },
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/NewItem"
                }
              }
            }
          },
          "NewBoard": {
            "type": "object",
            "description": "Strict: any other field is refused. Ids are unique within the board.",
            "required": [
              "id",
              "title",
              "collections"
            ],
            "additionalProperties": false,
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "title": {
                "$ref": "#/components/schemas/Text"
              },
              "locked": {
                "type": "boolean",
                "default": false
              },
              "collections": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/NewCollection"
                }
              },
              "folders": {
                "type": "object",
                "description": "The items inside each folder item, by its id.",
                "additionalProperties": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/NewItem"
                  }
                }
              }
            }
          }
        """#
}
