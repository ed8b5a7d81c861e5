'use strict';
// The Corkboard protocol subset (hello → welcome, move → committed broadcast, echo) on
// Node's http module and the `ws` package, written the way ws's README does it: two
// WebSocketServers in noServer mode sharing one http.Server, picked by path on 'upgrade'.
// Node runs it all on one thread, which is each board's serialization.

const http = require('http');

// Debian's node-ws lives in /usr/share/nodejs, which is not on Node's default search path.
let ws;
try {
  ws = require('ws');
} catch {
  ws = require('/usr/share/nodejs/ws');
}
const { WebSocketServer } = ws;

const SUBPROTOCOL = 'corkboard.v1';
const EPOCH = 'e1';
// The limit Corkboard's benchmarks give Corkboard, so a large echo is measured alike.
const MAX_MESSAGE_BYTES = 16 << 20;

function parseOptions(args) {
  const options = { host: '127.0.0.1', port: 8080 };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined) usage(`${flag} needs a value`);
    if (flag === '--port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`bad port ${value}`);
      options.port = port;
    } else if (flag === '--host') {
      options.host = value;
    } else {
      usage(`unknown option ${flag}`);
    }
  }
  return options;
}

function usage(problem) {
  process.stderr.write(`${problem}\nusage: node server.js [--host 127.0.0.1] [--port N]\n`);
  process.exit(2);
}

// ---- Boards -------------------------------------------------------------------------

/** @type {Map<string, Room>} */
const rooms = new Map();

class Room {
  constructor(board) {
    this.board = board;
    this.seq = 0;
    this.location = new Map(); // item id → index of its collection
    board.collections.forEach((collection, index) => {
      for (const item of collection.items) this.location.set(item.id, index);
    });
    this.members = new Map(); // client id → WebSocket
    this.clientsJoined = 0;
  }

  document() {
    return { ...this.board, seq: this.seq, epoch: EPOCH };
  }

  join(socket) {
    this.clientsJoined += 1;
    const client = `c${this.clientsJoined}`;
    this.members.set(client, socket);
    socket.send(JSON.stringify({
      type: 'welcome', client, role: 'owner', epoch: EPOCH, seq: this.seq, resumed: false,
      board: this.board, peers: [],
    }));
    return client;
  }

  leave(client) {
    this.members.delete(client);
  }

  move(socket, client, opId, baseSeq, sources, destination) {
    const problem = this.problem(baseSeq, sources, destination);
    if (problem) {
      socket.send(JSON.stringify({ type: 'rejected', opId, code: 'invalid', message: problem }));
      return;
    }
    this.apply(sources, destination);
    this.seq += 1;
    // Encoded once; every member, the sender included, is sent the same string.
    const text = JSON.stringify({
      type: 'committed', seq: this.seq, opId, client,
      op: { type: 'move', sources, destination },
      adjusted: false,
    });
    for (const member of this.members.values()) member.send(text);
  }

  problem(baseSeq, sources, destination) {
    if (baseSeq < 0 || baseSeq > this.seq) return `baseSeq ${baseSeq} is not a seq of this board (now ${this.seq})`;
    if (sources.length === 0) return 'a move needs at least one source';
    if (new Set(sources).size !== sources.length) return 'a source appears twice';
    for (const source of sources) {
      if (!this.location.has(source)) return `there is no item "${source}"`;
    }
    const target = this.collectionIndex(destination.collection);
    if (target < 0) return `there is no collection "${destination.collection}"`;
    if (destination.before !== null) {
      if (this.location.get(destination.before) !== target) {
        return `"${destination.before}" is not in "${destination.collection}"`;
      }
      if (sources.includes(destination.before)) return `"${destination.before}" is one of the sources`;
    }
    return null;
  }

  collectionIndex(id) {
    return this.board.collections.findIndex((collection) => collection.id === id);
  }

  // Removes the sources from wherever they are and inserts them, in the given order,
  // before the anchor or at the end. The move has been checked.
  apply(sources, destination) {
    const moving = new Set(sources);
    const taken = new Map();
    for (const index of new Set(sources.map((source) => this.location.get(source)))) {
      const collection = this.board.collections[index];
      collection.items = collection.items.filter((item) => {
        if (!moving.has(item.id)) return true;
        taken.set(item.id, item);
        return false;
      });
    }
    const target = this.collectionIndex(destination.collection);
    const items = this.board.collections[target].items;
    let at = items.length;
    if (destination.before !== null) at = items.findIndex((item) => item.id === destination.before);
    items.splice(at, 0, ...sources.map((source) => taken.get(source)));
    for (const source of sources) this.location.set(source, target);
  }
}

const isID = (value) => typeof value === 'string' && value.length > 0 && Buffer.byteLength(value) <= 128;

// A new board's body, checked and copied field by field; returns [board, problem].
function readBoard(body) {
  const shape = 'the body must be {"id","title","collections":[{"id","title","items":[{"id","label"}]}]}';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [null, shape];
  if (!isID(body.id) || typeof body.title !== 'string' || !Array.isArray(body.collections)) return [null, shape];
  if (body.locked !== undefined && typeof body.locked !== 'boolean') return [null, shape];
  const collectionIDs = new Set();
  const itemIDs = new Set();
  const collections = [];
  for (const collection of body.collections) {
    if (collection === null || typeof collection !== 'object' || !isID(collection.id)
        || typeof collection.title !== 'string' || !Array.isArray(collection.items)) return [null, shape];
    if (collectionIDs.has(collection.id)) return [null, `collection "${collection.id}" appears twice`];
    collectionIDs.add(collection.id);
    const items = [];
    for (const item of collection.items) {
      if (item === null || typeof item !== 'object' || !isID(item.id) || typeof item.label !== 'string') return [null, shape];
      if (itemIDs.has(item.id)) return [null, `item "${item.id}" appears twice`];
      itemIDs.add(item.id);
      items.push({ id: item.id, label: item.label });
    }
    collections.push({ id: collection.id, title: collection.title, items });
  }
  return [{ id: body.id, title: body.title, locked: body.locked === true, collections }, null];
}

// ---- HTTP ---------------------------------------------------------------------------

function sendJSON(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function createBoard(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendJSON(res, 400, { error: 'bad request', message: 'the body must be JSON' });
    }
    const [board, problem] = readBoard(body);
    if (problem) return sendJSON(res, 400, { error: 'bad request', message: problem });
    if (rooms.has(board.id)) return sendJSON(res, 409, { error: 'conflict', message: `board "${board.id}" exists` });
    const room = new Room(board);
    rooms.set(board.id, room);
    sendJSON(res, 201, room.document());
  });
}

const server = http.createServer((req, res) => {
  const path = req.url.split('?')[0];
  if (req.method === 'GET' && path === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
  } else if (req.method === 'POST' && path === '/api/boards') {
    createBoard(req, res);
  } else {
    sendJSON(res, 404, { error: 'not found', message: `no route for ${req.method} ${path}` });
  }
});

// ---- WebSockets ---------------------------------------------------------------------

const boardSockets = new WebSocketServer({
  noServer: true,
  perMessageDeflate: false,
  maxPayload: MAX_MESSAGE_BYTES,
  handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
});
const echoSockets = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_MESSAGE_BYTES });

server.on('upgrade', (req, socket, head) => {
  const path = req.url.split('?')[0];
  const target = path === '/ws' ? boardSockets : path === '/ws/echo' ? echoSockets : null;
  if (!target) {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    return;
  }
  target.handleUpgrade(req, socket, head, (socket) => target.emit('connection', socket, req));
});

echoSockets.on('connection', (socket) => {
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
});

boardSockets.on('connection', (socket) => {
  let joined = null; // { room, client } after hello

  const send = (value) => socket.send(JSON.stringify(value));
  const error = (code, message) => send({ type: 'error', code, message });
  const refuse = (code, message) => {
    error(code, message);
    socket.close(1008, code);
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) return socket.close(1003, 'messages are JSON text');
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      message = null;
    }
    if (message === null || typeof message !== 'object' || typeof message.type !== 'string') {
      if (!joined) return refuse('invalid', 'the first message must be hello with a board');
      return error('invalid', 'not a message of this protocol (a JSON object with a string type)');
    }
    if (!joined) {
      if (message.type !== 'hello' || typeof message.board !== 'string') {
        return refuse('invalid', 'the first message must be hello with a board');
      }
      const room = rooms.get(message.board);
      if (!room) return refuse('not-found', `there is no board "${message.board}"`);
      joined = { room, client: room.join(socket) };
      return;
    }
    switch (message.type) {
      case 'move': {
        const { opId, baseSeq, sources, destination } = message;
        if (typeof opId !== 'string') return error('invalid', 'a move needs a string opId');
        const before = destination?.before ?? null;
        if (!Number.isInteger(baseSeq) || !Array.isArray(sources) || !sources.every((s) => typeof s === 'string')
            || destination === null || typeof destination !== 'object' || typeof destination.collection !== 'string'
            || (before !== null && typeof before !== 'string')) {
          return send({ type: 'rejected', opId, code: 'invalid',
            message: 'a move needs baseSeq, sources and destination {collection, before}' });
        }
        joined.room.move(socket, joined.client, opId, baseSeq, sources,
          { collection: destination.collection, before });
        return;
      }
      case 'hello':
        return error('invalid', 'already joined');
      default:
        return error('invalid', `this server handles only hello and move, not "${message.type}"`);
    }
  });

  socket.on('close', () => {
    if (joined) joined.room.leave(joined.client);
    joined = null;
  });
});

const options = parseOptions(process.argv.slice(2));
server.listen(options.port, options.host, () => {
  process.stdout.write(`listening on http://${options.host}:${server.address().port}\n`);
});
