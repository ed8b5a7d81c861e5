extension OpenAPIDocument {
    /// A board's log, `/api/boards/{id}/events` (the stream) and `/api/boards/{id}/ops` (pages,
    /// and operations over HTTP), and `/api/openapi.json`: members of `paths`.
    static let logPaths = #"""
          "/api/boards/{id}/events": {
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "required": true,
                "schema": {
                  "$ref": "#/components/schemas/Id"
                },
                "example": "demo"
              },
              {
                "name": "since",
                "in": "query",
                "schema": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 9007199254740991
                },
                "description": "resume after this seq (for clients that cannot send Last-Event-ID)"
              },
              {
                "name": "epoch",
                "in": "query",
                "schema": {
                  "type": "string",
                  "minLength": 1
                },
                "description": "the epoch since belongs to; another epoch gets reset"
              },
              {
                "name": "Last-Event-ID",
                "in": "header",
                "schema": {
                  "type": "string",
                  "pattern": "^[ \\t]*[0-9]{0,16}[ \\t]*$"
                },
                "description": "resume after this seq (sent by EventSource when it reconnects); wins over since; empty: none"
              }
            ],
            "get": {
              "operationId": "streamEvents",
              "summary": "The board's committed events as server-sent events, live, resumable by seq.",
              "description": "Events: committed (id = seq, data = the event as GET …/ops writes it), reset (id = seq, data = the board document), gone, error; `: ping` comments every 15 s; the stream never ends by itself.",
              "responses": {
                "200": {
                  "description": "The stream (chunked, no Content-Length).",
                  "content": {
                    "text/event-stream": {
                      "schema": {
                        "type": "string"
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
              "operationId": "streamEventsHead",
              "summary": "GET without the stream: whether it would be served.",
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
            "options": {
              "operationId": "eventsPreflight",
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
                  "$ref": "#/components/schemas/Id"
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
                    "maximum": 9007199254740991
                  },
                  "description": "the cursor: events after this seq (0 when neither since nor cursor is given)"
                },
                {
                  "name": "cursor",
                  "in": "query",
                  "schema": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
                  },
                  "description": "the same cursor as since, by the name every list takes (give one of the two)"
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
                    "maximum": 9007199254740991
                  }
                },
                {
                  "name": "cursor",
                  "in": "query",
                  "schema": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 9007199254740991
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
                "401": {
                  "$ref": "#/components/responses/Unauthorized"
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
        """#
}
