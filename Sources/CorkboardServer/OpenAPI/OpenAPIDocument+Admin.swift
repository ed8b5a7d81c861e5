/// The admin API (`/api/admin`, docs/protocol.md#admin): its paths and the shapes of their bodies.
extension OpenAPIDocument {
    static let adminPaths = #"""
          "/api/admin/access": {
            "get": {
              "operationId": "adminAccess",
              "summary": "Whether the request's token may use the admin API (an owner of every board), answered 200 whatever the token: the admin page asks it first, so that it never makes a request it would be refused.",
              "responses": {
                "200": {
                  "description": "Whether the token is an administrator's, and if not why.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/AdminAccess"
                      }
                    }
                  }
                },
                "400": {
                  "$ref": "#/components/responses/BadRequest"
                },
                "403": {
                  "$ref": "#/components/responses/Forbidden"
                }
              }
            },
            "head": {
              "operationId": "adminAccessHead",
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
                }
              }
            },
            "options": {
              "operationId": "adminAccessPreflight",
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
          },
          "/api/admin/overview": {
            "get": {
              "operationId": "adminOverview",
              "summary": "This node (id, version, store, uptime, draining), the other nodes alive on the shared store, and one page of the boards open on this node with who is on them (an owner of every board only).",
              "parameters": [
                {
                  "name": "limit",
                  "in": "query",
                  "required": false,
                  "description": "Boards per page, 1 to 1000 (default 100).",
                  "schema": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 1000
                  }
                },
                {
                  "name": "cursor",
                  "in": "query",
                  "required": false,
                  "description": "The next of the page before.",
                  "schema": {
                    "type": "string",
                    "minLength": 1
                  }
                }
              ],
              "responses": {
                "200": {
                  "description": "The overview.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/AdminOverview"
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
                }
              }
            },
            "head": {
              "operationId": "adminOverviewHead",
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
                }
              }
            },
            "options": {
              "operationId": "adminOverviewPreflight",
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
          },
          "/api/admin/drain": {
            "post": {
              "operationId": "drainNode",
              "summary": "Drains the node that answers, as SIGTERM does but without exiting: /readyz answers 503 at once, and after --drain-seconds its members are closed with 1001 to join again elsewhere (an owner of every board only).",
              "responses": {
                "200": {
                  "description": "The node, draining.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/AdminNode"
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
                }
              }
            },
            "delete": {
              "operationId": "undrainNode",
              "summary": "Takes the drain back: /readyz answers as before (an owner of every board only).",
              "responses": {
                "200": {
                  "description": "The node, not draining.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/AdminNode"
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
                  "description": "The node is shutting down (SIGTERM): that drain cannot be taken back.",
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
              "operationId": "adminDrainPreflight",
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

    static let adminSchemas = #"""
          "AdminAccess": {
            "type": "object",
            "required": [
              "administrator"
            ],
            "properties": {
              "administrator": {
                "type": "boolean",
                "description": "The token is an owner's of every board."
              },
              "message": {
                "type": "string",
                "description": "When it is not: why (no token, a refused token, a token of another role or of some boards)."
              }
            }
          },
          "AdminNode": {
            "type": "object",
            "required": [
              "id",
              "version",
              "store",
              "startedAt",
              "uptimeSeconds",
              "draining",
              "shuttingDown"
            ],
            "properties": {
              "id": {
                "type": "string",
                "description": "The node's name among the nodes sharing a PostgreSQL store; local with a store of its own."
              },
              "version": {
                "type": "string"
              },
              "store": {
                "type": "string",
                "enum": [
                  "sqlite",
                  "postgres",
                  "memory"
                ]
              },
              "startedAt": {
                "type": "integer",
                "description": "When the server started, in milliseconds since 1970."
              },
              "uptimeSeconds": {
                "type": "integer",
                "minimum": 0
              },
              "draining": {
                "type": "boolean",
                "description": "/readyz answers 503: an owner drained the node, or it is shutting down."
              },
              "shuttingDown": {
                "type": "boolean",
                "description": "SIGTERM or SIGINT began a shutdown."
              }
            }
          },
          "AdminMember": {
            "type": "object",
            "required": [
              "client",
              "name",
              "node",
              "observes"
            ],
            "properties": {
              "client": {
                "type": "string"
              },
              "name": {
                "type": "string"
              },
              "user": {
                "type": "string",
                "description": "Who its commits are by (a signed token's sub, a token-file grant's name, else the name it joined with); only for this node's members."
              },
              "role": {
                "type": "string",
                "enum": [
                  "viewer",
                  "editor",
                  "owner"
                ],
                "description": "Only for this node's members."
              },
              "node": {
                "type": "string",
                "description": "The node it is connected to."
              },
              "observes": {
                "type": "boolean",
                "description": "Follows the board without being a peer (observe, an event stream)."
              }
            }
          },
          "AdminBoard": {
            "type": "object",
            "required": [
              "id",
              "memberCount",
              "members"
            ],
            "properties": {
              "id": {
                "type": "string"
              },
              "memberCount": {
                "type": "integer",
                "minimum": 0
              },
              "members": {
                "type": "array",
                "description": "This node's members in join order, then the other nodes' peers this node heard of; the first 1000.",
                "items": {
                  "$ref": "#/components/schemas/AdminMember"
                }
              }
            }
          },
          "AdminOverview": {
            "type": "object",
            "required": [
              "node",
              "nodes",
              "boards"
            ],
            "properties": {
              "node": {
                "$ref": "#/components/schemas/AdminNode"
              },
              "nodes": {
                "type": "array",
                "description": "The other nodes alive on the shared store, by their heartbeats.",
                "items": {
                  "type": "object",
                  "required": [
                    "id"
                  ],
                  "properties": {
                    "id": {
                      "type": "string"
                    }
                  }
                }
              },
              "boards": {
                "type": "array",
                "description": "The boards open on this node, by id.",
                "items": {
                  "$ref": "#/components/schemas/AdminBoard"
                }
              },
              "next": {
                "type": "string",
                "description": "The cursor of the next page; absent on the last."
              }
            }
          }
        """#
}
