// A TypeScript program on the browser SDK's declarations (web/sdk/types/, the package's
// `types`): every event with its typed detail, the store API and a token provider, with no
// cast and no `any`. SDKPackageTests runs `tsc --noEmit -p` on it under --strict, so a change
// of the SDK's types that would break a TypeScript user fails the tests.
import { connect, CorkboardRejection } from "@corkboard/sdk";
import type { LiveBoardEventMap, LiveSnapshot, LiveState, Rejection, TokenChange } from "@corkboard/sdk";

/** Asks this page's backend for a token (a signed one of a few minutes). */
async function tokenFromBackend(): Promise<string> {
  const response = await fetch("/corkboard-token?board=sprint-12", { credentials: "same-origin" });
  if (!response.ok) throw new Error(`token endpoint answered ${response.status}`);
  const { token } = (await response.json()) as { token: string };
  return token;
}

const live = connect({ url: "https://boards.example", board: "sprint-12", name: "Ada", getToken: tokenFromBackend });
const log: string[] = [];

// Every event, each detail typed by LiveBoardEventMap.
live.addEventListener("state", (event) => {
  const state: LiveState = event.detail.state;
  log.push(`state ${state}`);
});
live.addEventListener("board", (event) => {
  const { cause, event: committed, own } = event.detail;
  if (cause === "committed" && committed) log.push(`seq ${committed.seq} by ${committed.by ?? committed.client}${own ? " (ours)" : ""}`);
  else log.push(`board ${cause}`);
});
live.addEventListener("presence", (event) => {
  const { truncated, next } = event.detail;
  if (truncated) log.push("some names may be out of date");
  if (next !== undefined && next !== null) live.listPeers(next, 200);
  log.push(`${live.memberCount} here`);
});
live.addEventListener("committed", (event) => {
  const { seq, op, adjusted } = event.detail;
  log.push(`${op.type} at ${seq}${adjusted ? ", adjusted" : ""}`);
});
live.addEventListener("rejected", (event) => {
  const rejection: Rejection = event.detail;
  if ("ref" in rejection) log.push(`drag refused: ${rejection.code}, held by ${rejection.holder ?? "nobody"}`);
  else log.push(`refused ${rejection.op?.type ?? "undo"}: ${rejection.message}`);
});
live.addEventListener("drag-ended", (event) => {
  log.push(`our drag ended: ${event.detail.reason}`);
});
live.addEventListener("history", (event) => {
  const { cause, op } = event.detail;
  log.push(`history ${cause}${op ? ` (${op.type})` : ""}: undo ${live.canUndo}, redo ${live.canRedo}`);
});
live.addEventListener("fatal", (event) => {
  const { code, message } = event.detail;
  log.push(`refused for good: ${code} ${message}`);
});
live.addEventListener("token", (event) => {
  const change: TokenChange = event.detail;
  switch (change.status) {
    case "accepted":
      log.push(`token renewed until ${change.expiresAt === null ? "ever" : new Date(change.expiresAt).toISOString()}`);
      break;
    case "refused":
      log.push(`token refused (${change.code}): ${change.message}`);
      break;
    case "failed":
      log.push(`no token (${String(change.error)}); again in ${change.retryIn} ms`);
      break;
  }
});

// A listener written apart from the call, typed from the map.
const onBoard = (event: LiveBoardEventMap["board"]): void => {
  log.push(event.detail.cause);
};
live.addEventListener("board", onBoard);
live.removeEventListener("board", onBoard);

// The store API, as React's useSyncExternalStore or a Vue shallowRef use it: passed unbound.
function externalStore(subscribe: (listener: () => void) => () => void, getSnapshot: () => LiveSnapshot): LiveSnapshot {
  const unsubscribe = subscribe(() => log.push("changed"));
  const snapshot = getSnapshot();
  unsubscribe();
  return snapshot;
}
const snapshot = externalStore(live.subscribe, live.getSnapshot);
const columns: number = snapshot.board?.collections.length ?? 0;
const people: string[] = snapshot.peers.map((peer) => peer.name);
const expires: number | null = snapshot.tokenExpiresAt;
log.push(`${snapshot.state}: ${columns} columns, ${people.join(", ")}, ${snapshot.memberCount} in all, token until ${expires}`);
if (snapshot.refusal) log.push(snapshot.refusal.message);

// An operation's outcome, and its refusal.
export async function finish(cardId: string): Promise<number | null> {
  try {
    const outcome = await live.move([cardId], { collection: "done", before: null });
    return outcome.status === "committed" ? outcome.seq : null;
  } catch (error) {
    if (error instanceof CorkboardRejection) log.push(`${error.code}: ${error.message}`);
    return null;
  } finally {
    if (snapshot.canUndo) await live.undo().catch(() => undefined);
  }
}

export { live, log };
