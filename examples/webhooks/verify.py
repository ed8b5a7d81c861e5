"""Verifying a Corkboard webhook delivery (docs/integrations.md#verifying-a-delivery).

Standard Webhooks: the signature is HMAC-SHA256, keyed with the base64-decoded secret (after
its whsec_ prefix), over "{webhook-id}.{webhook-timestamp}.{raw body}"; the header holds one
or more space-separated "v1,<base64>". Check the raw bytes you received, before parsing them.
"""

import base64
import hashlib
import hmac
import json
import time


def verify(secret: str, headers: dict, body: bytes, tolerance: int = 300) -> dict:
    """The delivery's JSON if Corkboard signed it in the last `tolerance` seconds; else ValueError."""
    message_id = headers["webhook-id"]
    timestamp = headers["webhook-timestamp"]
    # A delivery replayed later than this is refused, whatever its signature.
    if abs(time.time() - int(timestamp)) > tolerance:
        raise ValueError("webhook-timestamp is too far from now")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for signature in headers["webhook-signature"].split(" "):
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return json.loads(body)
    raise ValueError("no valid signature")


if __name__ == "__main__":
    # Checks captured deliveries: one JSON object a line on standard input,
    # {"headers": {...}, "body": "<the raw body as text>"}, with the secret in WEBHOOK_SECRET.
    import os
    import sys

    count = 0
    for line in sys.stdin:
        if line.strip():
            request = json.loads(line)
            verify(os.environ["WEBHOOK_SECRET"], request["headers"], request["body"].encode())
            count += 1
    print(f"verified {count}")
