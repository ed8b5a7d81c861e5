// Test doubles for the SDK's surroundings: a WebSocket whose server side the test plays, a
// clock whose time only the test moves (a monotonic one and a wall clock), and an in-memory Storage.

export class FakeTimers {
  constructor() {
    this.time = 0;
    this.nextId = 1;
    /** @type {Map<number, { at: number, fn: () => void }>} */
    this.waiting = new Map();
  }
  setTimeout = (fn, ms) => {
    const id = this.nextId++;
    this.waiting.set(id, { at: this.time + Math.max(0, ms), fn });
    return id;
  };
  clearTimeout = (id) => {
    this.waiting.delete(id);
  };
  now = () => this.time;
  /** The wall clock (ms since 1970) moves with the fake time, from a fixed moment. */
  static wallStart = Date.UTC(2026, 10, 29, 12);
  wallClock = () => FakeTimers.wallStart + this.time;
  /** Moves the clock by `ms`, running every timer that falls due, in time order. */
  advance(ms) {
    const end = this.time + ms;
    for (let guard = 0; guard < 10000; guard++) {
      const due = [...this.waiting.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.waiting.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = end;
  }
}

export class MemoryStorage {
  constructor() {
    /** @type {Map<string, string>} */
    this.map = new Map();
  }
  getItem(key) {
    return this.map.has(key) ? this.map.get(key) : null;
  }
  setItem(key, value) {
    this.map.set(key, String(value));
  }
  removeItem(key) {
    this.map.delete(key);
  }
}

/** A WebSocket class whose instances record what the client sent; the test answers. */
export function fakeWebSocketClass() {
  const sockets = [];
  class FakeWebSocket extends EventTarget {
    static OPEN = 1;
    constructor(url, protocols) {
      super();
      this.url = url;
      this.protocols = protocols;
      this.readyState = 0;
      /** @type {any[]} */
      this.sent = [];
      this.closedWith = null;
      sockets.push(this);
    }
    send(text) {
      if (this.readyState !== 1) throw new Error("send on a socket that is not open");
      this.sent.push(JSON.parse(text));
    }
    close(code = 1000, reason = "") {
      this.closedWith = { code, reason };
      this.readyState = 2;
    }
    // The server's side:
    open() {
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
    }
    receive(message) {
      const event = new Event("message");
      event.data = JSON.stringify(message);
      this.dispatchEvent(event);
    }
    serverClose(code = 1006, reason = "") {
      this.readyState = 3;
      const event = new Event("close");
      event.code = code;
      event.reason = reason;
      this.dispatchEvent(event);
    }
    sentOfType(type) {
      return this.sent.filter((m) => m.type === type);
    }
  }
  return { FakeWebSocket, sockets };
}

export const board = () => ({
  id: "b",
  title: "Board",
  locked: false,
  collections: [
    { id: "todo", title: "To do", items: [{ id: "a", label: "A" }, { id: "b", label: "B" }, { id: "c", label: "C" }] },
    { id: "done", title: "Done", items: [] },
  ],
});

export function welcome(overrides = {}) {
  return { type: "welcome", client: "me", role: "editor", epoch: "e1", seq: 0, peers: [], count: 1, resumed: false, board: board(), ...overrides };
}
