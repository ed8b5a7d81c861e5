extension OpenAPIDocument {
    /// `/api/webhooks` and `/api/webhooks/{id}` (docs/protocol.md#webhooks).
    static let webhookPaths = #"""
          "/api/webhooks": {
            "get": {
              "operationId": "listWebhooks",
              "summary": "Every webhook endpoint, of the webhooks file and of the API, ordered by id, with how far behind it is and how its last attempt went; never a secret. Only for an owner of every board.",
              "parameters": [
                {
                  "name": "limit",
                  "in": "query",
                  "required": false,
                  "schema": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 1000,
                    "default": 100
                  }
                },
                {
                  "name": "cursor",
                  "in": "query",
                  "required": false,
                  "description": "The next of the previous page (opaque).",
                  "schema": {
                    "type": "string"
                  }
                }
              ],
              "responses": {
                "200": {
                  "description": "One page of endpoints; next only when more follow.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/WebhookList"
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
              "operationId": "listWebhooksHead",
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
                "503": {
                  "description": "As GET."
                }
              }
            },
            "post": {
              "operationId": "createWebhook",
              "summary": "Makes an endpoint that receives, signed, the events committed from now on (of the boards it names, or of every board) and boards created and deleted. The answer holds its secret, told this once.",
              "requestBody": {
                "required": true,
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/NewWebhook"
                    }
                  }
                }
              },
              "responses": {
                "201": {
                  "description": "Made; deliveries begin within a second.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/CreatedWebhook"
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
            "options": {
              "operationId": "webhooksPreflight",
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
          "/api/webhooks/{id}": {
            "parameters": [
              {
                "name": "id",
                "in": "path",
                "required": true,
                "schema": {
                  "type": "string"
                }
              }
            ],
            "get": {
              "operationId": "getWebhook",
              "summary": "One endpoint, as listed.",
              "responses": {
                "200": {
                  "description": "The endpoint.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Webhook"
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
                  "description": "No webhook with this id.",
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
              "operationId": "getWebhookHead",
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
            "delete": {
              "operationId": "deleteWebhook",
              "summary": "Deletes an endpoint made through the API, with its cursors: nothing more is sent to it (an attempt in flight may still arrive).",
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
                  "description": "No webhook with this id.",
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Error"
                      }
                    }
                  }
                },
                "409": {
                  "description": "The endpoint comes from the webhooks file: it is removed there (and the server reloaded with SIGHUP).",
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
              "operationId": "webhookPreflight",
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

    /// The bodies of `/api/webhooks`.
    static let webhookSchemas = #"""
          "NewWebhook": {
            "type": "object",
            "required": ["url"],
            "properties": {
              "url": {
                "type": "string",
                "description": "The receiver: an absolute http or https URL, without user, password or fragment; at most 2048 bytes."
              },
              "secret": {
                "type": "string",
                "pattern": "^whsec_[A-Za-z0-9+/=]+$",
                "description": "whsec_ and the base64 of 24 to 64 bytes; made by the server when left out."
              },
              "boards": {
                "type": "array",
                "minItems": 1,
                "maxItems": 1000,
                "items": {
                  "type": "string",
                  "minLength": 1
                },
                "description": "The boards whose events it receives; every board when left out."
              }
            },
            "additionalProperties": false
          },
          "Webhook": {
            "type": "object",
            "required": ["id", "url", "source", "backlog", "failures"],
            "properties": {
              "id": {
                "type": "string",
                "description": "wh_ and 16 hex digits for one made through the API; the file's own id otherwise."
              },
              "url": {
                "type": "string"
              },
              "boards": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "description": "Absent: every board."
              },
              "source": {
                "type": "string",
                "enum": ["api", "file"],
                "description": "file: from --webhooks, changed only there."
              },
              "createdAt": {
                "type": "integer",
                "description": "Milliseconds since 1970; absent for the file's."
              },
              "backlog": {
                "type": "integer",
                "minimum": 0,
                "description": "Committed events not yet delivered, over the boards it receives."
              },
              "failures": {
                "type": "integer",
                "minimum": 0,
                "description": "Failed attempts in a row; 0 when the last one succeeded or none was made."
              },
              "lastAttemptAt": {
                "type": "integer",
                "description": "Milliseconds since 1970."
              },
              "lastStatus": {
                "type": "integer",
                "description": "The receiver's status at the last attempt; absent when it could not be reached."
              },
              "lastError": {
                "type": "string",
                "description": "Why the last attempt failed; absent when it succeeded."
              },
              "nextAttemptAt": {
                "type": "integer",
                "description": "Milliseconds since 1970: when the failed message goes again."
              }
            }
          },
          "CreatedWebhook": {
            "type": "object",
            "required": ["id", "url", "source", "createdAt", "secret"],
            "properties": {
              "id": {
                "type": "string"
              },
              "url": {
                "type": "string"
              },
              "boards": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "source": {
                "type": "string",
                "const": "api"
              },
              "createdAt": {
                "type": "integer",
                "description": "Milliseconds since 1970."
              },
              "secret": {
                "type": "string",
                "description": "whsec_…: told this once; every delivery is signed with it."
              }
            }
          },
          "WebhookList": {
            "type": "object",
            "required": ["webhooks"],
            "properties": {
              "webhooks": {
                "type": "array",
                "items": {
                  "$ref": "#/components/schemas/Webhook"
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
