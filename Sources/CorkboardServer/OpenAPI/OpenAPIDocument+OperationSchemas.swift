extension OpenAPIDocument {
    /// The operations a client sends (`POST /api/boards/{id}/ops`, as on the WebSocket) and
    /// their outcomes, `committed` and `rejected`, and a page of the log: members of `schemas`.
    static let operationSchemas = #"""
          "Destination": {
            "type": "object",
            "required": [
              "collection"
            ],
            "properties": {
              "collection": {
                "$ref": "#/components/schemas/Id",
                "description": "a column, or a folder item's id (its contents)"
              },
              "before": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Id"
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "null or absent: the end"
              }
            }
          },
          "Operation": {
            "description": "One operation, exactly as on the WebSocket (docs/protocol.md#4-operations).",
            "anyOf": [
              {
                "$ref": "#/components/schemas/MoveByAnchor"
              },
              {
                "$ref": "#/components/schemas/MoveByOffsets"
              },
              {
                "$ref": "#/components/schemas/Insert"
              },
              {
                "$ref": "#/components/schemas/Delete"
              },
              {
                "$ref": "#/components/schemas/UpdateItem"
              },
              {
                "$ref": "#/components/schemas/RenameCollection"
              },
              {
                "$ref": "#/components/schemas/RenameBoard"
              },
              {
                "$ref": "#/components/schemas/AddCollection"
              },
              {
                "$ref": "#/components/schemas/RemoveCollection"
              },
              {
                "$ref": "#/components/schemas/Lock"
              }
            ]
          },
          "MoveByAnchor": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "baseSeq",
              "sources",
              "destination"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "move"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "baseSeq": {
                "$ref": "#/components/schemas/Seq"
              },
              "sources": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Id"
                }
              },
              "destination": {
                "$ref": "#/components/schemas/Destination"
              }
            }
          },
          "MoveByOffsets": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "baseSeq",
              "collection",
              "fromOffsets",
              "toOffset"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "move"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "baseSeq": {
                "$ref": "#/components/schemas/Seq"
              },
              "collection": {
                "$ref": "#/components/schemas/Id"
              },
              "fromOffsets": {
                "type": "array",
                "items": {
                  "type": "integer",
                  "minimum": 0
                }
              },
              "toOffset": {
                "type": "integer",
                "minimum": 0
              },
              "toCollection": {
                "$ref": "#/components/schemas/Id"
              }
            }
          },
          "Insert": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "baseSeq",
              "items",
              "destination"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "insert"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "baseSeq": {
                "$ref": "#/components/schemas/Seq"
              },
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/NewItem"
                }
              },
              "destination": {
                "$ref": "#/components/schemas/Destination"
              }
            }
          },
          "Delete": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "baseSeq",
              "items"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "delete"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "baseSeq": {
                "$ref": "#/components/schemas/Seq"
              },
              "items": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Id"
                }
              }
            }
          },
          "UpdateItem": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "baseSeq",
              "item"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "update"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "baseSeq": {
                "$ref": "#/components/schemas/Seq"
              },
              "item": {
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
              "accepts": {
                "type": "boolean",
                "description": "a folder's accepts, in an update of its own (with no label or data)"
              }
            }
          },
          "RenameCollection": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "collection",
              "title"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "update"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "collection": {
                "$ref": "#/components/schemas/Id"
              },
              "title": {
                "$ref": "#/components/schemas/Text"
              }
            }
          },
          "RenameBoard": {
            "type": "object",
            "description": "An update naming neither an item nor a collection: the board's own title (owner only).",
            "required": [
              "type",
              "opId",
              "title"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "update"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "title": {
                "$ref": "#/components/schemas/Text"
              }
            }
          },
          "AddCollection": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "collection"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "collection.add"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "collection": {
                "type": "object",
                "required": [
                  "id",
                  "title"
                ],
                "properties": {
                  "id": {
                    "$ref": "#/components/schemas/Id"
                  },
                  "title": {
                    "$ref": "#/components/schemas/Text"
                  }
                }
              },
              "before": {
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/Id"
                  },
                  {
                    "type": "null"
                  }
                ]
              }
            }
          },
          "RemoveCollection": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "collection"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "collection.remove"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "collection": {
                "$ref": "#/components/schemas/Id"
              }
            }
          },
          "Lock": {
            "type": "object",
            "required": [
              "type",
              "opId",
              "locked"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "lock"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "locked": {
                "type": "boolean"
              }
            }
          },
          "Committed": {
            "type": "object",
            "description": "The operation's commit, as every WebSocket member receives it; or, with noop, a move that changed nothing.",
            "required": [
              "type",
              "opId",
              "seq"
            ],
            "properties": {
              "type": {
                "type": "string",
                "const": "committed"
              },
              "seq": {
                "$ref": "#/components/schemas/Seq"
              },
              "opId": {
                "$ref": "#/components/schemas/Id"
              },
              "client": {
                "type": "string"
              },
              "adjusted": {
                "type": "boolean"
              },
              "at": {
                "type": "integer",
                "minimum": 0,
                "description": "the server's commit time in milliseconds since 1970-01-01 UTC; absent on events stored before commit times were kept"
              },
              "by": {
                "type": "string",
                "description": "the author: the signed token's sub, else the token-file grant's name, else the hello name (over HTTP: \"http\"); at most 256 bytes of UTF-8 (names are) on events committed since names were bounded; absent on events stored before authors were kept"
              },
              "noop": {
                "type": "boolean",
                "const": true
              },
              "op": {
                "type": "object",
                "required": [
                  "type"
                ],
                "description": "the operation as resolved, without opId and baseSeq",
                "properties": {
                  "type": {
                    "enum": [
                      "move",
                      "insert",
                      "delete",
                      "update",
                      "collection.add",
                      "collection.remove",
                      "lock"
                    ]
                  }
                }
              }
            }
          },
          "Rejected": {
            "type": "object",
            "description": "The operation's rejection; nothing changed. Over HTTP it carries error, as every error body does.",
            "required": [
              "type",
              "code"
            ],
            "properties": {
              "error": {
                "type": "string",
                "description": "the status's reason, lower case (over HTTP)"
              },
              "type": {
                "type": "string",
                "const": "rejected"
              },
              "opId": {
                "type": "string",
                "description": "the opId as sent"
              },
              "code": {
                "type": "string",
                "enum": [
                  "invalid",
                  "gone",
                  "forbidden",
                  "locked",
                  "busy",
                  "rate-limited",
                  "unavailable"
                ]
              },
              "message": {
                "type": "string"
              }
            }
          },
          "EventPage": {
            "type": "object",
            "required": [
              "events"
            ],
            "properties": {
              "events": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Committed"
                }
              },
              "next": {
                "type": "integer",
                "minimum": 0,
                "maximum": 9007199254740991,
                "description": "present when the board has events after this page: the since (or cursor) of the next"
              }
            }
          }
        """#
}
