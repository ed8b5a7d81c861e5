// @ts-check
// When a signed token (a JWT) expires, read from its payload's `exp`: what the SDK goes by to
// refresh a token before its expiry on a server that does not say `tokenExpiresAt` (an older
// one). The signature is not checked: that is the server's business, and the client only
// wants to know when to ask for a new token.

/**
 * @param {string | null} token
 * @returns {number | null} ms since 1970; null for anything that is not a JWT with a numeric `exp`
 */
export function jwtExpiry(token) {
  const parts = token?.split(".") ?? [];
  if (parts.length !== 3) return null;
  try {
    const base64 = parts[1].replace(/-/g, "+").replace(/_/g, "/");
    const payload = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")));
    const exp = payload?.exp;
    return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}
