/// The OpenAPI 3.1 description of the HTTP API, served at `GET /api/openapi.json`: every
/// `/api` route with its parameters, bodies, responses and the error body. docs/protocol.md#8-http-api
/// stays the normative text; the tests hold the two together (schemathesis drives a real
/// server from this document and checks every answer against it). The routes are in
/// `OpenAPIDocument+Paths.swift`, the shapes of their bodies in `OpenAPIDocument+Schemas.swift`
/// and `OpenAPIDocument+OperationSchemas.swift`.
enum OpenAPIDocument {
    /// Kept in the binary, not beside it: `corkboard` is installed as one file.
    static let bytes = withConventions(json)

    static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Corkboard HTTP API",
            "version": "\#(CorkboardVersion.current)",
            "description": "Boards of collections of items, reordered live by people and bots. The normative description is docs/protocol.md#8-http-api; the WebSocket protocol (corkboard.v1 on /ws) is not described here. The conventions of every endpoint (docs/protocol.md#conventions): lists in pages (limit, cursor, next), unknown or repeated query parameters refused with 400, every error body with error and message (a rejected operation's also with its type, opId and code), and a 429 with Retry-After and the RateLimit-Policy and RateLimit fields."
          },
          "security": [
            {},
            {
              "bearer": []
            }
          ],
          "paths": \#(paths),
          "components": {
            "schemas": \#(schemas),
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
                "description": "With a token file, a token secret or a token key: no token, or one that proves nothing (unknown, expired, badly signed, an alg without a key of its kind). Carries WWW-Authenticate: Bearer.",
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
                "description": "Either a token of the token file (--tokens, docs/security.md#token-file), or a signed per-user token minted by your backend: a JWT, HS256 with a token secret (--token-secret-file), or RS256 or ES256 checked with a public key (--token-public-key-file) or a JWK Set (--token-jwks-file) (docs/security.md#signed-tokens); a revoked one is refused (docs/security.md#revoking-tokens). Ignored in open mode."
              }
            }
          }
        }
        """#
}
