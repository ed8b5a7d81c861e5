extension OpenAPIDocument {
    /// `/api/boards/{id}/archive`: a board exported as an archive, and an archive imported into
    /// a running server (`ArchiveRoutes`).
    static let archivePaths = #"""
          "/api/boards/{id}/archive": {
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "required": true,
                "schema": {
                  "$ref": "#/components/schemas/Id"
                },
                "example": "demo"
              }
            ],
            "get": {
              "operationId": "exportBoard",
              "summary": "The board as an archive, as corkboard export writes it (an owner of the board only).",
              "parameters": [
                {
                  "name": "history",
                  "in": "query",
                  "required": false,
                  "schema": {
                    "type": "string",
                    "enum": ["true", "false"]
                  },
                  "description": "true: with the board's kept log (archive format 2)."
                }
              ],
              "responses": {
                "200": {
                  "description": "The archive.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/BoardArchive"
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
              "operationId": "exportBoardHead",
              "summary": "GET without the body.",
              "responses": {
                "200": {
                  "description": "As GET."
                },
                "400": {
                  "description": "As GET."
                },
                "401": {
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
            "put": {
              "operationId": "importBoard",
              "summary": "Puts an archive in as this board (an owner of the board only); with replace=true in place of an existing one, whose members are closed with 1012 to join again.",
              "parameters": [
                {
                  "name": "replace",
                  "in": "query",
                  "required": false,
                  "schema": {
                    "type": "string",
                    "enum": ["true", "false"]
                  },
                  "description": "true: replace the board if it exists (it gets a fresh epoch)."
                }
              ],
              "requestBody": {
                "required": true,
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/BoardArchive"
                    }
                  }
                }
              },
              "responses": {
                "200": {
                  "description": "An existing board was replaced.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ImportedBoard"
                      }
                    }
                  }
                },
                "201": {
                  "description": "The board was created.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ImportedBoard"
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
                "409": {
                  "description": "A board with this id exists and replace is not true.",
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
                  "description": "A new board past the server's maximum of boards (--max-boards).",
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
              "operationId": "archivePreflight",
              "summary": "CORS preflight.",
              "responses": {
                "204": {
                  "$ref": "#/components/responses/Preflight"
                },
                "403": {
                  "$ref": "#/components/responses/Forbidden"
                }
              }
            }
          }
        """#

    /// The archive (docs/storage.md#export-and-import) and an import's answer.
    static let archiveSchemas = #"""
          "ArchivedBoard": {
            "type": "object",
            "description": "A board without its seq and epoch (those are the archive's).",
            "required": ["id", "title", "locked", "collections"],
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
              }
            }
          },
          "ArchivedEvent": {
            "type": "object",
            "description": "A committed event of the kept log, as the store keeps it.",
            "required": ["seq", "opId", "client", "op", "adjusted"],
            "properties": {
              "seq": {
                "$ref": "#/components/schemas/Seq"
              },
              "opId": {
                "type": "string"
              },
              "client": {
                "type": "string"
              },
              "op": {
                "type": "object",
                "description": "The operation as resolved (docs/protocol.md#4-operations)."
              },
              "adjusted": {
                "type": "boolean"
              },
              "at": {
                "type": "integer",
                "description": "Commit time, milliseconds since 1970 UTC."
              },
              "by": {
                "type": "string"
              }
            }
          },
          "BoardArchive": {
            "type": "object",
            "description": "One board: the board at seq, its epoch, and in format 2 optionally its kept log (docs/storage.md#export-and-import).",
            "required": ["format", "board", "seq"],
            "properties": {
              "format": {
                "type": "integer",
                "minimum": 1,
                "maximum": 2
              },
              "board": {
                "$ref": "#/components/schemas/ArchivedBoard"
              },
              "seq": {
                "$ref": "#/components/schemas/Seq"
              },
              "epoch": {
                "type": "string"
              },
              "history": {
                "type": "object",
                "description": "The kept log: the snapshot at snapshotSeq and the events after it, through seq.",
                "required": ["snapshot", "snapshotSeq", "events"],
                "properties": {
                  "snapshot": {
                    "$ref": "#/components/schemas/ArchivedBoard"
                  },
                  "snapshotSeq": {
                    "$ref": "#/components/schemas/Seq"
                  },
                  "events": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/ArchivedEvent"
                    }
                  }
                }
              }
            }
          },
          "ImportedBoard": {
            "type": "object",
            "required": ["id", "seq", "epoch", "replaced"],
            "properties": {
              "id": {
                "$ref": "#/components/schemas/Id"
              },
              "seq": {
                "$ref": "#/components/schemas/Seq"
              },
              "epoch": {
                "type": "string"
              },
              "replaced": {
                "type": "boolean",
                "description": "True when a board with this id existed and was replaced (it got a fresh epoch)."
              }
            }
          }
        """#
}
