/// The OpenAPI 3.1 description of the HTTP API, served at `GET /api/openapi.json`: every
/// `/api` route with its parameters, bodies, responses and the error body. docs/protocol.md §8
/// stays the normative text; the tests hold the two together (schemathesis drives a real
/// server from this document and checks every answer against it).
enum OpenAPIDocument {
    /// Kept in the binary, not beside it: `corkboard` is installed as one file.
    static let bytes = Array(json.utf8)

    static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Corkboard HTTP API",
            "version": "1",
            "description": "Boards of collections of items, reordered live by people and bots. The normative description is docs/protocol.md §8; the WebSocket protocol (corkboard.v1 on /ws) is not described here. Every failure that is not an operation's outcome has the body {\"error\",\"message\"}."
          },
          "paths": {
            "/api/boards": {
              "get": {
                "operationId": "listBoards",
                "summary": "The boards the token may see, sorted by id.",
                "responses": {
                  "200": {
                    "description": "The boards.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BoardList"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              },
              "head": {
                "operationId": "listBoardsHead",
                "summary": "GET without the body.",
                "responses": {
                  "200": {
                    "description": "As GET."
                  },
                  "400": {
                    "description": "As GET."
                  },
                  "403": {
                    "description": "As GET."
                  },
                  "503": {
                    "description": "As GET."
                  }
                }
              },
              "post": {
                "operationId": "createBoard",
                "summary": "Creates a board at seq 0 with a new epoch (owner only).",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/NewBoard"
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The new board, as GET returns it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BoardDocument"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A body that is not a usable board; the message names the field's path (collections[1].items[3].id).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "409": {
                    "description": "A board with this id exists.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  },
                  "507": {
                    "description": "The server holds its maximum of boards (--max-boards).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "options": {
                "operationId": "boardsPreflight",
                "summary": "CORS preflight.",
                "responses": {
                  "204": {
                    "$ref": "#/components/responses/Preflight"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  }
                }
              }
            },
            "/api/boards/{id}": {
              "parameters": [
                {
                  "name": "id",
                  "in": "path",
                  "required": true,
                  "schema": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "example": "demo"
                }
              ],
              "get": {
                "operationId": "getBoard",
                "summary": "The board at its durable seq.",
                "responses": {
                  "200": {
                    "description": "The board.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BoardDocument"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              },
              "head": {
                "operationId": "getBoardHead",
                "summary": "GET without the body.",
                "responses": {
                  "200": {
                    "description": "As GET."
                  },
                  "400": {
                    "description": "As GET."
                  },
                  "403": {
                    "description": "As GET."
                  },
                  "404": {
                    "description": "As GET."
                  },
                  "503": {
                    "description": "As GET."
                  }
                }
              },
              "delete": {
                "operationId": "deleteBoard",
                "summary": "Deletes the board and all kept for it (owner only); its members get error gone and close 1008.",
                "responses": {
                  "204": {
                    "description": "Deleted."
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              },
              "options": {
                "operationId": "boardPreflight",
                "summary": "CORS preflight.",
                "responses": {
                  "204": {
                    "$ref": "#/components/responses/Preflight"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  }
                }
              }
            },
            "/api/boards/{id}/ops": {
              "parameters": [
                {
                  "name": "id",
                  "in": "path",
                  "required": true,
                  "schema": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "example": "demo"
                }
              ],
              "get": {
                "operationId": "listEvents",
                "summary": "The durable committed events after since, a page at a time.",
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 9007199254740991,
                      "default": 0
                    },
                    "description": "the cursor: events after this seq"
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 10000,
                      "default": 1000
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page; without next it is the end of the log.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/EventPage"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A bad query (another parameter, one given twice, since above the board's seq), or a bad Authorization header.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "410": {
                    "description": "since is older than the kept history.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              },
              "head": {
                "operationId": "listEventsHead",
                "summary": "GET without the body.",
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "maximum": 9007199254740991,
                      "default": 0
                    }
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 10000,
                      "default": 1000
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "As GET."
                  },
                  "400": {
                    "description": "As GET."
                  },
                  "403": {
                    "description": "As GET."
                  },
                  "404": {
                    "description": "As GET."
                  },
                  "410": {
                    "description": "As GET."
                  },
                  "503": {
                    "description": "As GET."
                  }
                }
              },
              "post": {
                "operationId": "submitOperation",
                "summary": "One operation; answered once its outcome may be told (a commit once durable).",
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Operation"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Committed, a noop, or the repeat of an opId's first commit.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Committed"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "rejected invalid for an operation with a usable opId; else the error body.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/Rejected"
                            },
                            {
                              "$ref": "#/components/schemas/Error"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "403": {
                    "description": "rejected forbidden (a role too low), or the error body.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/Rejected"
                            },
                            {
                              "$ref": "#/components/schemas/Error"
                            }
                          ]
                        }
                      }
                    }
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "409": {
                    "description": "rejected gone or busy.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Rejected"
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/TooLarge"
                  },
                  "423": {
                    "description": "rejected locked.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Rejected"
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "rejected rate-limited: retry the same opId.",
                    "headers": {
                      "Retry-After": {
                        "schema": {
                          "type": "string"
                        },
                        "required": true
                      }
                    },
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Rejected"
                        }
                      }
                    }
                  },
                  "503": {
                    "description": "rejected unavailable, or the error body when the board cannot be loaded.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "anyOf": [
                            {
                              "$ref": "#/components/schemas/Rejected"
                            },
                            {
                              "$ref": "#/components/schemas/Error"
                            }
                          ]
                        }
                      }
                    }
                  }
                }
              },
              "options": {
                "operationId": "opsPreflight",
                "summary": "CORS preflight.",
                "responses": {
                  "204": {
                    "$ref": "#/components/responses/Preflight"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  }
                }
              }
            },
            "/api/openapi.json": {
              "get": {
                "operationId": "openAPI",
                "summary": "This document.",
                "responses": {
                  "200": {
                    "description": "OpenAPI 3.1.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  }
                }
              },
              "head": {
                "operationId": "openAPIHead",
                "summary": "GET without the body.",
                "responses": {
                  "200": {
                    "description": "As GET."
                  },
                  "403": {
                    "description": "As GET."
                  }
                }
              },
              "options": {
                "operationId": "openAPIPreflight",
                "summary": "CORS preflight.",
                "responses": {
                  "204": {
                    "$ref": "#/components/responses/Preflight"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "403": {
                    "$ref": "#/components/responses/Forbidden"
                  }
                }
              }
            }
          },
          "components": {
            "schemas": {
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "label": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
                  },
                  "data": {
                    "type": "object",
                    "description": "any JSON object: at most 64 KiB, nesting at most 506 levels"
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "title": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "title": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
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
                  "seq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "title": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
                  },
                  "seq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "label": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
                  },
                  "data": {
                    "oneOf": [
                      {
                        "type": "object",
                        "description": "any JSON object: at most 64 KiB, nesting at most 506 levels"
                      },
                      {
                        "type": "null"
                      }
                    ]
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "title": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "title": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
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
                  }
                }
              },
              "Destination": {
                "type": "object",
                "required": [
                  "collection"
                ],
                "properties": {
                  "collection": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "before": {
                    "oneOf": [
                      {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 128,
                        "description": "1…128 bytes of UTF-8"
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
                    "const": "move"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "baseSeq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
                  },
                  "sources": {
                    "type": "array",
                    "items": {
                      "type": "string",
                      "minLength": 1,
                      "maxLength": 128,
                      "description": "1…128 bytes of UTF-8"
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
                    "const": "move"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "baseSeq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
                  },
                  "collection": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
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
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
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
                    "const": "insert"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "baseSeq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
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
                    "const": "delete"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "baseSeq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
                  },
                  "items": {
                    "type": "array",
                    "items": {
                      "type": "string",
                      "minLength": 1,
                      "maxLength": 128,
                      "description": "1…128 bytes of UTF-8"
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
                    "const": "update"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "baseSeq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
                  },
                  "item": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "label": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
                  },
                  "data": {
                    "oneOf": [
                      {
                        "type": "object",
                        "description": "any JSON object: at most 64 KiB, nesting at most 506 levels"
                      },
                      {
                        "type": "null"
                      }
                    ]
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
                    "const": "update"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "collection": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "title": {
                    "type": "string",
                    "maxLength": 16384,
                    "description": "at most 16 KiB of UTF-8"
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
                    "const": "collection.add"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "collection": {
                    "type": "object",
                    "required": [
                      "id",
                      "title"
                    ],
                    "properties": {
                      "id": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 128,
                        "description": "1…128 bytes of UTF-8"
                      },
                      "title": {
                        "type": "string",
                        "maxLength": 16384,
                        "description": "at most 16 KiB of UTF-8"
                      }
                    }
                  },
                  "before": {
                    "oneOf": [
                      {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 128,
                        "description": "1…128 bytes of UTF-8"
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
                    "const": "collection.remove"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "collection": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
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
                    "const": "lock"
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
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
                    "const": "committed"
                  },
                  "seq": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
                  },
                  "opId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128,
                    "description": "1…128 bytes of UTF-8"
                  },
                  "client": {
                    "type": "string"
                  },
                  "adjusted": {
                    "type": "boolean"
                  },
                  "noop": {
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
                "description": "The operation's rejection; nothing changed.",
                "required": [
                  "type",
                  "code"
                ],
                "properties": {
                  "type": {
                    "const": "rejected"
                  },
                  "opId": {
                    "type": "string",
                    "description": "the opId as sent"
                  },
                  "code": {
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
                    "description": "present when the board has events after this page: the since of the next"
                  }
                }
              }
            },
            "responses": {
              "BadRequest": {
                "description": "The request is wrong (body, query, or an Authorization header not of the form Bearer <token>).",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Unauthorized": {
                "description": "With a token file or a token secret: no token, or one that proves nothing (unknown, expired, badly signed). Carries WWW-Authenticate: Bearer.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Forbidden": {
                "description": "The token does not allow this (a viewer's change, another board's token), or the Origin is not among --allowed-origins.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "NotFound": {
                "description": "No such board (for a token valid for it), or no such path.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "TooLarge": {
                "description": "A body over 1 MiB.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Unavailable": {
                "description": "The store cannot be read or written now.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Preflight": {
                "description": "The path's methods; for an origin among --allowed-origins, the CORS preflight's answer.",
                "headers": {
                  "Allow": {
                    "schema": {
                      "type": "string"
                    },
                    "required": true
                  }
                }
              }
            },
            "securitySchemes": {
              "bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "A token of the token file; ignored in open mode."
              }
            }
          },
          "security": [
            {},
            {
              "bearer": []
            }
          ]
        }
        """#
}
