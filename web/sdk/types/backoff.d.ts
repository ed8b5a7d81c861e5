export class Backoff {
    /**
     * @param {{ base?: number, cap?: number, jitter?: number, random?: () => number }} options
     */
    constructor({ base, cap, jitter, random }?: {
        base?: number;
        cap?: number;
        jitter?: number;
        random?: () => number;
    });
    base: number;
    cap: number;
    jitter: number;
    random: () => number;
    attempts: number;
    /**
     * The delay before the next attempt (at least `atLeast` before its jitter), counting it.
     * @param {number} [atLeast]
     * @returns {number} milliseconds
     */
    next(atLeast?: number | undefined): number;
    /** A connection got through: the next loss starts from `base` again. */
    reset(): void;
}
