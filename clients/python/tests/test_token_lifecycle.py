"""The client's half of the token lifecycle (the contract the README's "Tokens" describes),
against a scripted fake server: the provider is asked before each connect and before the
token expires, the new token goes in a `token` message, `token.accepted` moves the expiry,
failures and refusals are retried with backoff on the live connection, close 4001 gets a new
token and resumes, close 1008 stops the client."""

import asyncio
import base64
import json
import time
import unittest

from corkboard import CannotConnect, Client, ClientClosed, ConnectionState, Move

from fake_server import WAIT, FakeServerTestCase, in_ms


class Provider:
    """Hands out t1, t2, …, raising where told; counts its calls."""

    def __init__(self, failing: set[int] | None = None) -> None:
        self.calls = 0
        self.failing = failing or set()

    async def __call__(self) -> str:
        self.calls += 1
        if self.calls in self.failing:
            raise RuntimeError("the backend is down")
        return f"t{self.calls}"


def unsigned_jwt(expires_in: float) -> str:
    """A JWT's shape with an `exp`: the client reads it, only a server checks the signature."""
    part = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()  # noqa: E731
    return f"{part({'alg': 'HS256'})}.{part({'sub': 'u', 'exp': int(time.time() + expires_in)})}.sig"


class TokenLifecycleTests(FakeServerTestCase):
    async def test_the_provider_is_asked_at_connect_and_before_the_token_expires(self) -> None:
        provider = Provider()
        client = Client(self.url, "b", name="bot", token=provider)
        started = time.monotonic()
        self.connection = await self.connect(client, tokenExpiresAt=in_ms(2))
        self.assertEqual(self.connection.hello["token"], "t1")
        # At expiry minus a quarter of the 2 s left: about 1.5 s after the welcome.
        refresh = await self.connection.receive(timeout=WAIT)
        self.assertEqual(refresh, {"type": "token", "token": "t2"})
        self.assertGreater(time.monotonic() - started, 1.0)
        later = in_ms(600)
        await self.connection.send({"type": "token.accepted", "tokenExpiresAt": later})
        await client.wait_until(lambda c: c.token_expires_at == later, WAIT)
        self.assertEqual(provider.calls, 2)
        await client.close()

    async def test_without_token_expires_at_the_jwts_exp_schedules_the_refresh(self) -> None:
        tokens = iter([unsigned_jwt(2), "fresh"])
        client = Client(self.url, "b", name="bot", token=lambda: next(tokens))
        self.connection = await self.connect(client)
        self.assertEqual(await self.connection.receive(timeout=WAIT), {"type": "token", "token": "fresh"})
        await client.close()

    async def test_a_failing_provider_is_asked_again_without_dropping_the_connection(self) -> None:
        provider = Provider(failing={2})
        client = Client(self.url, "b", name="bot", token=provider)
        self.connection = await self.connect(client, tokenExpiresAt=in_ms(1))
        # The second call fails; the third, a second later, gives t3.
        self.assertEqual(await self.connection.receive(timeout=WAIT), {"type": "token", "token": "t3"})
        self.assertEqual(self.server.accepted, 1)
        self.assertEqual(client.state, ConnectionState.JOINED)
        await client.close()

    async def test_a_refused_refresh_is_tried_again(self) -> None:
        provider = Provider()
        client = Client(self.url, "b", name="bot", token=provider)
        self.connection = await self.connect(client, tokenExpiresAt=in_ms(1))
        self.assertEqual(await self.connection.receive(timeout=WAIT), {"type": "token", "token": "t2"})
        await self.connection.send({"type": "token.refused", "code": "forbidden", "message": "another sub"})
        self.assertEqual(await self.connection.receive(timeout=WAIT), {"type": "token", "token": "t3"})
        await client.close()

    async def test_close_4001_gets_a_new_token_and_resumes(self) -> None:
        provider = Provider()
        client = Client(self.url, "b", name="bot", token=provider, reconnect_backoff=(0.01, 0.05))
        self.connection = await self.connect(client, tokenExpiresAt=in_ms(600))
        await self.connection.send(
            {"type": "committed", "seq": 1, "opId": "x-1", "client": "c2", "adjusted": False,
             "op": {"type": "move", "sources": ["a"], "destination": {"collection": "todo", "before": None}}}
        )
        await client.wait_until(lambda c: c.seq == 1, WAIT)
        await self.connection.send({"type": "error", "code": "unauthorized", "message": "the token expired at …"})
        await self.connection.close(4001, "the token expired at …")
        again = await self.server.next_connection()
        self.assertEqual(again.hello["token"], "t2")
        self.assertEqual(again.hello["resume"], {"epoch": "e1", "seq": 1})
        await again.send({"type": "welcome", "client": "c3", "role": "editor", "epoch": "e1", "seq": 1,
                          "resumed": True, "peers": [], "count": 1})
        await client.wait_until(lambda c: c.state == ConnectionState.JOINED and c.client_id == "c3", WAIT)
        self.assertEqual([i["id"] for i in client.board["collections"][0]["items"]], ["b", "a"])
        await client.close()

    async def test_close_4001_without_a_provider_stops_the_client(self) -> None:
        client = Client(self.url, "b", name="bot", token="fixed", reconnect_backoff=(0.01, 0.05))
        self.connection = await self.connect(client)
        await self.connection.send({"type": "error", "code": "unauthorized", "message": "the token expired at …"})
        await self.connection.close(4001, "the token expired at …")
        await client.wait_until(lambda c: c.state == ConnectionState.REFUSED, WAIT)
        await asyncio.sleep(0.3)
        self.assertEqual(self.server.accepted, 1)
        await client.close()

    async def test_close_1008_stops_the_client_even_with_a_provider(self) -> None:
        provider = Provider()
        client = Client(self.url, "b", name="bot", token=provider, reconnect_backoff=(0.01, 0.05))
        self.connection = await self.connect(client)
        sending = asyncio.ensure_future(client.send(Move(["a"], "todo")))
        self.assertEqual((await self.connection.receive())["type"], "move")
        await self.connection.send({"type": "error", "code": "forbidden", "message": "the token was revoked"})
        await self.connection.close(1008, "the token was revoked")
        with self.assertRaises(ClientClosed):
            await asyncio.wait_for(sending, WAIT)
        self.assertEqual(client.state, ConnectionState.REFUSED)
        await asyncio.sleep(0.3)
        self.assertEqual((self.server.accepted, provider.calls), (1, 1))
        await client.close()

    async def test_a_provider_failing_at_the_first_connect_cannot_connect(self) -> None:
        client = Client(self.url, "b", name="bot", token=Provider(failing={1}))
        with self.assertRaises(CannotConnect):
            await asyncio.wait_for(client.connect(), WAIT)
        self.assertEqual(self.server.accepted, 0)


if __name__ == "__main__":
    unittest.main()
