"""Where a client's token comes from, and when to ask for a new one
(the token lifecycle contract: welcome's `tokenExpiresAt`, the `token` message, close 4001).

A token is a fixed string, or a provider: a function returning a token or an awaitable of one,
called before each connect and shortly before the current token expires."""

import base64
import binascii
import inspect
import json
from collections.abc import Awaitable, Callable

TokenProvider = Callable[[], str | Awaitable[str]]
TokenSource = str | TokenProvider | None

# Refresh this long before expiry at most; a token with a short life, at a quarter of what is left.
REFRESH_LEAD_SECONDS = 30.0


class TokenProviderError(Exception):
    """The provider raised or returned something that is not a token."""


async def fetch_token(source: TokenSource) -> str | None:
    """The token to use now: the fixed one, or the provider's answer."""
    if source is None or isinstance(source, str):
        return source
    try:
        answer = source()
        token = await answer if inspect.isawaitable(answer) else answer
    except Exception as error:
        raise TokenProviderError(f"the token provider failed: {error!r}") from error
    if not isinstance(token, str) or not token:
        raise TokenProviderError(f"the token provider returned {type(token).__name__}, not a token")
    return token


def jwt_expiry_ms(token: str) -> int | None:
    """A JWT's `exp` (seconds) in milliseconds, read from its payload without checking the
    signature (only the server can): used until the server says `tokenExpiresAt`."""
    parts = token.split(".")
    if len(parts) != 3:
        return None
    try:
        payload = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, binascii.Error):
        return None
    exp = payload.get("exp") if isinstance(payload, dict) else None
    if isinstance(exp, (int, float)) and not isinstance(exp, bool):
        return int(exp * 1000)
    return None


def refresh_delay(expires_at_ms: int, now_ms: float) -> float:
    """Seconds from now until a refresh: at expiry minus min(30 s, a quarter of what is left)."""
    remaining = max(0.0, (expires_at_ms - now_ms) / 1000)
    return max(0.0, remaining - min(REFRESH_LEAD_SECONDS, remaining / 4))
