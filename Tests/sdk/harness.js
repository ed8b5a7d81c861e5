// A connected SDK over the fakes of fakes.js, for the tests of this folder.
import { connect } from "../../web/sdk/corkboard.js";
import { FakeTimers, MemoryStorage, fakeWebSocketClass, welcome } from "./fakes.js";

export function setUp({ storage = new MemoryStorage(), random = () => 0.5, board = "b", token = undefined, getToken = undefined, hue = undefined } = {}) {
  const timers = new FakeTimers();
  const { FakeWebSocket, sockets } = fakeWebSocketClass();
  const window = new EventTarget();
  const document = Object.assign(new EventTarget(), { visibilityState: "visible" });
  const navigator = { onLine: true };
  const live = connect({ url: "http://127.0.0.1:1", board, name: "Ada", hue, token, getToken, storage, WebSocket: FakeWebSocket, timers, random, window, document, navigator, fetch: null });
  const events = [];
  for (const type of ["state", "board", "presence", "committed", "rejected", "drag-ended", "fatal", "token"]) {
    live.addEventListener(type, (event) => events.push({ type, detail: event.detail }));
  }
  const socket = () => sockets[sockets.length - 1];
  /** Opens the latest socket and welcomes it. */
  const join = (overrides = {}) => {
    socket().open();
    socket().receive(welcome(overrides));
  };
  return { live, timers, sockets, socket, join, storage, events, window, document, navigator };
}

export const labelsOf = (board, collection) => board.collections.find((c) => c.id === collection).items.map((i) => i.id);

/** Lets the promises settled so far run their callbacks (a token provider's answer). */
export const settle = () => new Promise((resolve) => setImmediate(resolve));
