extension OpenAPIDocument {
    /// `/api` (what the server is) and `/api/revocations` (revoking signed tokens).
    static let accessPaths = #"""
          "/api": {
            "get": {
              "operationId": "serverInfo",
              "summary": "What this server is and speaks; readable by a page of any origin.",
              "responses": {
                "200": {
                  "description": "The server's version, protocol, SDK and document, and whether the asking page's origin may use the server.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ServerInfo"
                      }
                    }
                  }
                }
              }
            },
            "head": {
              "operationId": "serverInfoHead",
              "summary": "GET without the body.",
              "responses": {
                "200": {
                  "description": "As GET."
                }
              }
            },
            "options": {
              "operationId": "serverInfoPreflight",
              "summary": "CORS preflight.",
              "responses": {
                "204": {
                  "$ref": "#/components/responses/Preflight"
                }
              }
            }
          },
          "/api/revocations": {
            "get": {
              "operationId": "listRevocations",
              "summary": "The revocations kept in the store (an owner of every board only), a page at a time, by what they name (jti before sub), each by its value.",
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
                  "description": "The revocations.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/RevocationList"
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
              "operationId": "listRevocationsHead",
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
                "401": {
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
              "operationId": "revokeTokens",
              "summary": "Revokes a user's tokens (sub; those issued up to now unless issuedBefore says otherwise) or one token (jti); their members are disconnected on every node.",
              "requestBody": {
                "required": true,
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/NewRevocation"
                    }
                  }
                }
              },
              "responses": {
                "201": {
                  "description": "In force.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Revocation"
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
                "413": {
                  "$ref": "#/components/responses/TooLarge"
                },
                "503": {
                  "$ref": "#/components/responses/Unavailable"
                }
              }
            },
            "delete": {
              "operationId": "withdrawRevocation",
              "summary": "Takes a revocation back: ?sub=USER or ?jti=TOKEN_ID.",
              "parameters": [
                {
                  "name": "sub",
                  "in": "query",
                  "required": false,
                  "schema": {
                    "type": "string"
                  }
                },
                {
                  "name": "jti",
                  "in": "query",
                  "required": false,
                  "schema": {
                    "type": "string"
                  }
                }
              ],
              "responses": {
                "204": {
                  "description": "Taken back."
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
              "operationId": "revocationsPreflight",
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

    /// The bodies of `/api` and `/api/revocations`.
    static let accessSchemas = #"""
          "ServerInfo": {
            "type": "object",
            "required": ["server", "version", "protocol", "sdk", "openapi"],
            "properties": {
              "server": {
                "type": "string",
                "const": "corkboard"
              },
              "version": {
                "type": "string",
                "description": "The server's version (docs/versioning.md)."
              },
              "protocol": {
                "type": "string",
                "description": "The WebSocket subprotocol: corkboard.v1."
              },
              "sdk": {
                "type": "string",
                "description": "The path of the browser SDK's entry module."
              },
              "openapi": {
                "type": "string",
                "description": "The path of this document."
              },
              "originAllowed": {
                "type": "boolean",
                "description": "With an Origin header: whether a page of that origin may use the API and the WebSocket (--allowed-origins)."
              }
            }
          },
          "NewRevocation": {
            "type": "object",
            "description": "A user's tokens (sub) or one token (jti).",
            "properties": {
              "sub": {
                "type": "string",
                "minLength": 1
              },
              "issuedBefore": {
                "type": "integer",
                "minimum": 0,
                "description": "With sub: the tokens issued (iat) before this second are refused; default: every token issued up to now."
              },
              "jti": {
                "type": "string",
                "minLength": 1
              }
            },
            "additionalProperties": false
          },
          "Revocation": {
            "type": "object",
            "required": ["revokedAt"],
            "properties": {
              "sub": {
                "type": "string"
              },
              "issuedBefore": {
                "type": "integer"
              },
              "jti": {
                "type": "string"
              },
              "revokedAt": {
                "type": "integer",
                "description": "Milliseconds since 1970."
              }
            }
          },
          "RevocationList": {
            "type": "object",
            "required": ["revocations"],
            "properties": {
              "revocations": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Revocation"
                }
              },
              "next": {
                "type": "string",
                "description": "present when there is a next page: its cursor"
              }
            }
          }
        """#
}
