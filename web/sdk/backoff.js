// @ts-check
// How long to wait before the next connection attempt: doubling from `base` up to `cap`, each
// delay spread by ±`jitter` so that the many tabs a server restart disconnects at the same
// moment do not all knock again at the same moment.

export class Backoff {
  /**
   * @param {{ base?: number, cap?: number, jitter?: number, random?: () => number }} options
   */
  constructor({ base = 500, cap = 10000, jitter = 0.3, random = Math.random } = {}) {
    this.base = base;
    this.cap = cap;
    this.jitter = jitter;
    this.random = random;
    this.attempts = 0;
  }

  /**
   * The delay before the next attempt (at least `atLeast` before its jitter), counting it.
   * @param {number} [atLeast]
   * @returns {number} milliseconds
   */
  next(atLeast = 0) {
    const plain = Math.max(atLeast, Math.min(this.cap, this.base * 2 ** this.attempts));
    this.attempts += 1;
    return Math.round(plain * (1 - this.jitter + 2 * this.jitter * this.random()));
  }

  /** A connection got through: the next loss starts from `base` again. */
  reset() {
    this.attempts = 0;
  }
}
