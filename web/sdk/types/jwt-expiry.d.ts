/**
 * @param {string | null} token
 * @returns {number | null} ms since 1970; null for anything that is not a JWT with a numeric `exp`
 */
export function jwtExpiry(token: string | null): number | null;
