extension OpenAPIDocument {
    /// Every `/api` route, its methods, parameters, bodies and responses: the boards here,
    /// their logs (the event stream, the ops pages) and this document in +LogPaths.swift.
    static let paths = "{\n" + [accessPaths, boardPaths, logPaths, adminPaths, webhookPaths, archivePaths].joined(separator: ",\n") + "\n}"

    /// `/api/boards` and `/api/boards/{id}`: listing, creating, reading, renaming, deleting.
    static let boardPaths = #"""
          "/api/boards": {
            "get": {
              "operationId": "listBoards",
              "summary": "The boards the token may see, sorted by id, a page at a time.",
              "parameters": [
                {
                  "$ref": "#/components/parameters/Limit"
                },
                {
                  "$ref": "#/components/parameters/Cursor"
                }
              ],
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
              "parameters": [
                {
                  "$ref": "#/components/parameters/Limit"
                },
                {
                  "$ref": "#/components/parameters/Cursor"
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
                  "$ref": "#/components/schemas/Id"
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
            "patch": {
              "operationId": "renameBoard",
              "summary": "Renames the board (owner only): committed as the operation {type: update, title}, which every member receives.",
              "requestBody": {
                "required": true,
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/BoardRename"
                    }
                  }
                }
              },
              "responses": {
                "200": {
                  "description": "Renamed: the board's id, new title, and the seq the rename was committed at.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/BoardSummary"
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
                "413": {
                  "$ref": "#/components/responses/TooLarge"
                },
                "423": {
                  "description": "The board is locked: unlock it first.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Error"
                      }
                    }
                  }
                },
                "429": {
                  "description": "Over the operation rate of the client's address: retry after Retry-After.",
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
          }
        """#
}
