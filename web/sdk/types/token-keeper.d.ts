/**
 * How long until a token that expires at `expiresAt` is refreshed: at `expiresAt - min(30 s, a
 * quarter of the remaining lifetime)`, so that a long-lived token is renewed 30 s ahead (the
 * server's clock leeway) and a short-lived one well before its end; at once when it is past.
 * @param {number} expiresAt ms since 1970
 * @param {number} now ms since 1970
 * @returns {number} ms
 */
export function refreshDelay(expiresAt: number, now: number): number;
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
    constructor(provider: TokenProvider, timers: TokenTimers, onFailure: (error: unknown, retryIn: number) => void);
    provider: TokenProvider;
    timers: TokenTimers;
    onFailure: (error: unknown, retryIn: number) => void;
    backoff: Backoff;
    /** @type {unknown} */
    timer: unknown;
    /** Raised by cancel(): an answer of an earlier request is dropped. */
    generation: number;
    /**
     * Asks the provider now, again after each failure, and gives the token to `use`.
     * @param {(token: string) => void} use
     */
    obtain(use: (token: string) => void): void;
    /**
     * Asks the provider after `delay` ms (then as `obtain`).
     * @param {number} delay
     * @param {(token: string) => void} use
     */
    later(delay: number, use: (token: string) => void): void;
    /**
     * Asks again after the next step of the backoff (the server refused the last token).
     * @param {(token: string) => void} use
     * @returns {number} the wait, ms
     */
    retry(use: (token: string) => void): number;
    /** A token was taken (a welcome, an accepted refresh): the next failure waits 1 s again. */
    succeeded(): void;
    /** Drops the request under way, or waiting, if any. */
    cancel(): void;
}
/**
 * A function the page gives that returns (a promise of) a token, e.g. from its backend.
 */
export type TokenProvider = () => string | Promise<string>;
export type TokenTimers = {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (id: unknown) => void;
};
import { Backoff } from "./backoff.js";
