// Verifying a Corkboard webhook delivery (docs/integrations.md#verifying-a-delivery), in Node.
// Standard Webhooks: HMAC-SHA256 keyed with the base64-decoded secret (after its whsec_ prefix)
// over "{webhook-id}.{webhook-timestamp}.{raw body}"; the header holds one or more
// space-separated "v1,<base64>". Check the raw bytes you received, before parsing them.
import { createHmac, timingSafeEqual } from "node:crypto";

/** The delivery's JSON if Corkboard signed it in the last `tolerance` seconds; throws otherwise. */
export function verify(secret, headers, body, tolerance = 300) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  // A delivery replayed later than this is refused, whatever its signature.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > tolerance) throw new Error("webhook-timestamp is too far from now");
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest();
  for (const signature of headers["webhook-signature"].split(" ")) {
    const [version, value] = signature.split(",");
    const given = Buffer.from(value ?? "", "base64");
    if (version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)) return JSON.parse(body);
  }
  throw new Error("no valid signature");
}

// Checks captured deliveries: one JSON object a line on standard input,
// {"headers": {...}, "body": "<the raw body as text>"}, with the secret in WEBHOOK_SECRET.
if (import.meta.url === `file://${process.argv[1]}`) {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  let count = 0;
  for (const line of input.split("\n").filter((line) => line.trim())) {
    const request = JSON.parse(line);
    verify(process.env.WEBHOOK_SECRET, request.headers, Buffer.from(request.body, "utf8"));
    count += 1;
  }
  console.log(`verified ${count}`);
}
