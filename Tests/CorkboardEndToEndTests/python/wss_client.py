"""A Corkboard client over wss:// with Python's own ssl and the `websockets` package.

Usage: wss_client.py URL CA_FILE BOARD

Verifies the server against CA_FILE only (not the system store), joins BOARD, moves its
first card to the end of its last collection, and prints what it saw as one JSON object.
Each wait is bounded at 10 s; any failure exits non-zero with the reason on stderr.
"""
import asyncio
import json
import ssl
import sys

import websockets


async def main(url, ca_file, board):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies the certificate and the host name
    context.load_verify_locations(cafile=ca_file)
    context.set_alpn_protocols(["http/1.1"])
    async with websockets.connect(url, ssl=context, subprotocols=["corkboard.v1"], open_timeout=10) as socket:
        transport = socket.transport
        ssl_object = transport.get_extra_info("ssl_object")
        await socket.send(json.dumps({"type": "hello", "board": board, "name": "python-wss"}))
        welcome = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if welcome.get("type") != "welcome":
            raise SystemExit(f"expected welcome, got {welcome}")
        collections = welcome["board"]["collections"]
        card = next(item["id"] for collection in collections for item in collection["items"])
        target = collections[-1]["id"]
        await socket.send(json.dumps({
            "type": "move", "opId": "python-wss-1", "baseSeq": welcome["seq"],
            "sources": [card], "destination": {"collection": target, "before": None},
        }))
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if message.get("type") == "committed" and message.get("opId") == "python-wss-1":
                break
            if message.get("type") in ("rejected", "error"):
                raise SystemExit(f"the move was refused: {message}")
        print(json.dumps({
            "welcomeSeq": welcome["seq"],
            "committedSeq": message["seq"],
            "moved": message["op"]["sources"],
            "to": message["op"]["destination"]["collection"],
            "subprotocol": socket.subprotocol,
            "tlsVersion": ssl_object.version(),
            "alpn": ssl_object.selected_alpn_protocol(),
        }))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
