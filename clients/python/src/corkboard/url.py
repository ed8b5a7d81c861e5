"""The socket's address for a board."""

import urllib.parse


def socket_url(url: str, board: str) -> str:
    """The URL with board=ID in its query: a load balancer in front of several nodes sends every
    member of a board to the same node (docs/protocol.md#2-transport). Encoded as JavaScript's
    encodeURIComponent does, like the other clients: the balancer hashes the text as sent."""
    parts = urllib.parse.urlsplit(url)
    hint = "board=" + urllib.parse.quote(board, safe="-_.!~*'()")
    return urllib.parse.urlunsplit(parts._replace(query=f"{parts.query}&{hint}" if parts.query else hint))
