// @ts-check
// Asking the page's token provider (`connect({ getToken })`) for a token: before each connect,
// and before the token in force expires (docs/sdk.md#tokens). A provider that throws or
// rejects is asked again after 1 s, 2 s, 4 s … 30 s at most; meanwhile the live connection
// stays as it is, its token holding until its own expiry. One request at a time: a new one
// cancels the one under way (whose answer is then dropped).

import { Backoff } from "./backoff.js";

/**
 * A function the page gives that returns (a promise of) a token, e.g. from its backend.
 * @typedef {() => string | Promise<string>} TokenProvider
 */
/**
 * @typedef {{ setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (id: unknown) => void }} TokenTimers
 */

export class TokenKeeper {
  /**
   * @param {TokenProvider} provider
   * @param {TokenTimers} timers
   * @param {(error: unknown, retryIn: number) => void} onFailure told each time the provider fails
   */
  constructor(provider, timers, onFailure) {
    this.provider = provider;
    this.timers = timers;
    this.onFailure = onFailure;
    // Without jitter: the spec's steps, and tabs refresh at their own tokens' times anyway.
    this.backoff = new Backoff({ base: 1000, cap: 30000, jitter: 0 });
    /** @type {unknown} */
    this.timer = null;
    /** Raised by cancel(): an answer of an earlier request is dropped. */
    this.generation = 0;
  }

  /**
   * Asks the provider now, again after each failure, and gives the token to `use`.
   * @param {(token: string) => void} use
   */
  obtain(use) {
    this.cancel();
    const generation = this.generation;
    const attempt = async () => {
      this.timer = null;
      /** @type {unknown} */
      let token;
      try {
        token = await this.provider();
        if (typeof token !== "string" || token === "") throw new TypeError("corkboard: getToken gave no token");
      } catch (error) {
        if (generation !== this.generation) return;
        const retryIn = this.backoff.next();
        this.timer = this.timers.setTimeout(attempt, retryIn);
        this.onFailure(error, retryIn);
        return;
      }
      if (generation === this.generation) use(token);
    };
    attempt();
  }

  /**
   * Asks the provider after `delay` ms (then as `obtain`).
   * @param {number} delay
   * @param {(token: string) => void} use
   */
  later(delay, use) {
    this.cancel();
    this.timer = this.timers.setTimeout(() => this.obtain(use), delay);
  }

  /**
   * Asks again after the next step of the backoff (the server refused the last token).
   * @param {(token: string) => void} use
   * @returns {number} the wait, ms
   */
  retry(use) {
    const delay = this.backoff.next();
    this.later(delay, use);
    return delay;
  }

  /** A token was taken (a welcome, an accepted refresh): the next failure waits 1 s again. */
  succeeded() {
    this.backoff.reset();
  }

  /** Drops the request under way, or waiting, if any. */
  cancel() {
    this.generation += 1;
    this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * How long until a token that expires at `expiresAt` is refreshed: at `expiresAt - min(30 s, a
 * quarter of the remaining lifetime)`, so that a long-lived token is renewed 30 s ahead (the
 * server's clock leeway) and a short-lived one well before its end; at once when it is past.
 * @param {number} expiresAt ms since 1970
 * @param {number} now ms since 1970
 * @returns {number} ms
 */
export function refreshDelay(expiresAt, now) {
  const remaining = expiresAt - now;
  return Math.max(0, remaining - Math.min(30000, remaining / 4));
}
