#!/usr/bin/env node
// A stand-in for `chessvar serve` (issue 21), for developing and testing the
// page while the real server is not there: the same URLs and WebSocket
// frames (docs/WEB.md), each game a `chessvar run VARIANT --json`
// process.  Not shipped, not secure: its spectator view is made from White's
// view with every masked figure hidden, and legal.detail is read from the
// machine texts, which the real server takes from the engine instead.
//
//   node tests/web/mock-server.js [--port P] [--chessvar PATH]
// prints "listening on http://127.0.0.1:P/".
'use strict';
const http = require('http');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { spawn, execFileSync } = require('child_process');

const args = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def; };
const ROOT = path.resolve(__dirname, '..', '..');
const CHESSVAR = opt('--chessvar', path.join(ROOT, 'chessvar'));
const PORT = Number(opt('--port', '0'));
const WEB = path.join(ROOT, 'web');

/* ---- one engine process per game ---- */
class Engine {
  constructor(argv) {
    this.p = spawn(CHESSVAR, ['run', ...argv, '--json'], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.buf = ''; this.waiting = []; this.chain = Promise.resolve();
    this.p.stdout.on('data', d => {
      this.buf += d;
      let i;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i); this.buf = this.buf.slice(i + 1);
        const w = this.waiting.shift();
        if (w) w(JSON.parse(line));
      }
    });
    this.p.on('exit', () => { for (const w of this.waiting) w({ ok: false, error: 'the engine stopped' }); this.waiting = []; });
  }
  ask(line) {
    const run = () => new Promise(res => { this.waiting.push(res); this.p.stdin.write(line.replace(/\n/g, ' ') + '\n'); });
    const r = this.chain.then(run);
    this.chain = r.catch(() => {});
    return r;
  }
}

const SQ = '([a-z]\\d+)';
function xy(name) {
  let m = /^(-?\d+),(-?\d+)$/.exec(name);
  if (m) return { x: Number(m[1]), y: Number(m[2]) };
  m = /^([a-z])(\d+)$/.exec(name);
  return { x: m[1].charCodeAt(0) - 97, y: Number(m[2]) - 1 };
}
// legal.detail from machine texts (the mock's shortcut).
function detail(machine, record) {
  let m, from = null, to = null, figure = null;
  if ((m = new RegExp(`^(?:reveal )?${SQ}${SQ}([a-z]?)\\b`).exec(machine))) { from = xy(m[1]); to = xy(m[2]); figure = m[3] ? m[3].toUpperCase() : null; }
  else if ((m = new RegExp(`^place ([A-Z]) ${SQ}$`).exec(machine))) { to = xy(m[2]); figure = m[1]; }
  else if ((m = /^([A-Z])@(-?\d+,-?\d+)$/.exec(machine))) { to = xy(m[2]); figure = m[1]; }
  else if ((m = /^(-?\d+,-?\d+)-(-?\d+,-?\d+)$/.exec(machine))) { from = xy(m[1]); to = xy(m[2]); }
  else if ((m = new RegExp(`^${SQ}$`).exec(machine))) { to = xy(m[1]); }
  return { kind: from ? 'move' : (to ? 'place' : 'other'), from, to, figure, amount: null, machine, record };
}

const games = new Map();
const VARIANTS = ['orthodox', 'masques', 'ambigus', 'echiquete', 'tile'];
let catalogue = null;

async function variants() {
  if (catalogue) return catalogue;
  const list = execFileSync(CHESSVAR, ['list']).toString().trim().split('\n');
  const out = [];
  for (const line of list) {
    const [name, title, summary] = line.split(/\s{2,}/);
    if (!VARIANTS.includes(name)) continue;
    const e = new Engine([name]);
    const p = await e.ask('params');
    e.p.stdin.end();
    out.push({
      name, title, summary,
      sides: name === 'tile' ? { min: 2, max: 6, default: 2 } : { min: name === 'echiquete' ? 3 : 2, max: name === 'echiquete' ? 3 : 2, default: name === 'echiquete' ? 3 : 2 },
      seats: name === 'echiquete' ? [2, 3] : [name === 'tile' ? 2 : 2],
      params: (p.params || []).map(q => ({ name: q.name, type: q.type, default: q.default, min: q.min, max: q.max, choices: q.choices, doc: q.doc })),
    });
  }
  const scripts = [];
  const dir = path.join(ROOT, 'scripts');
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).filter(n => n.endsWith('.lua')).sort() : []) {
    const t = fs.readFileSync(path.join(dir, f), 'utf8');
    const n = /name\s*=\s*"([^"]*)"/.exec(t), d = /description\s*=\s*"([^"]*)"/.exec(t);
    const v = /variants\s*=\s*\{([^}]*)\}/.exec(t);
    scripts.push({ file: f, name: n ? n[1] : f, description: d ? d[1] : '', variants: v ? [...v[1].matchAll(/"(\w+)"/g)].map(x => x[1]) : [] });
  }
  catalogue = { variants: out, scripts };
  return catalogue;
}

const hex = n => crypto.randomBytes(n).toString('hex');

async function createGame(body) {
  const cat = await variants();
  const v = cat.variants.find(x => x.name === body.variant);
  if (!v) throw new Error(`unknown variant '${body.variant}'`);
  const argv = [v.name];
  for (const [k, val] of Object.entries(body.params || {})) argv.push('--param', `${k}=${val}`);
  if (body.sides) argv.push('--sides', String(body.sides));
  if (body.seats) argv.push('--seats', String(body.seats));
  for (const r of body.rules || []) argv.push('--rules', path.join(ROOT, 'scripts', r));
  const eng = new Engine(argv);
  const st = await eng.ask('status');
  if (!st.ok) throw new Error(st.error);
  const seatNames = Object.keys(st.commands);
  const id = hex(8);
  const g = { id, variant: v.name, title: v.title, eng, seats: [], conns: new Set(), ply: 0 };
  for (const name of seatNames) {
    const pl = (body.players || []).find(p => p.seat === name);
    g.seats.push({ seat: name, bot: pl && pl.bot ? pl.bot : null, token: hex(16) });
  }
  games.set(id, g);
  botTurn(g);
  return {
    game: id,
    seats: g.seats.map(x => ({ seat: x.seat, bot: x.bot, link: `/#g=${id}&t=${x.token}` })),
    spectator: `/#g=${id}`, board: `/#g=${id}&board=1`,
  };
}

async function stateFor(g, c) {
  const st = await g.eng.ask('status');
  g.ply = st.ply;
  let view, legal = null, hist;
  if (c.seat) {
    view = (await g.eng.ask(`as ${c.seat} view`)).view;
    const l = await g.eng.ask(`as ${c.seat} legal`);
    if (l.ok && (l.actions.length || l.meta.length) && !st.status.over) {
      legal = { ...l, detail: l.actions.map((a, i) => detail(a, l.record[i])) };
      delete legal.ok; delete legal.cmd;
    }
    hist = (await g.eng.ask(`as ${c.seat} history`)).history;
  } else {
    const first = g.seats[0].seat;
    view = (await g.eng.ask(`as ${first} view`)).view;
    view.seat = null;
    view.pieces = view.pieces.map(p => p.flags.includes('masked') ? { ...p, figure: 'hidden', letter: '?' } : p);
    if (view.phase === 'setup') view.pieces = view.pieces.filter(() => false);
    view.messages = [];
    hist = (await g.eng.ask(`as ${first} history`)).history.map(e => (e.kind === 'place' ? { ...e, text: `${e.seat} arranges a piece`, machine: `${e.seat} arranges a piece` } : e));
  }
  const all = view.messages || [];
  const fresh = all.slice(c.seen || 0).map(t => ({ text: t }));
  c.seen = all.length;
  return {
    type: 'state', game: g.id, seat: c.seat, ply: st.ply, variant: g.variant, title: g.title,
    view, status: st, legal, history: hist, messages: fresh,
    seats: g.seats.map(x => ({ seat: x.seat, bot: x.bot, connected: [...g.conns].some(k => k.seat === x.seat) })),
    board: !!c.board,
  };
}

async function broadcast(g) {
  for (const c of g.conns) c.send(await stateFor(g, c));
}

async function botTurn(g) {
  for (let n = 0; n < 500; n++) {
    const st = await g.eng.ask('status');
    if (st.status.over || !st.to_act) return;
    const s = g.seats.find(x => x.seat === st.to_act);
    if (!s || !s.bot) return;
    const r = await g.eng.ask(`as ${s.seat} bot ${s.bot}`);
    if (!r.ok) return;
    await broadcast(g);
  }
}

/* ---- a minimal WebSocket (RFC 6455) server side ---- */
function wsAccept(req, sock, onMessage, onClose) {
  const key = req.headers['sec-websocket-key'];
  const acc = crypto.createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  sock.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acc}\r\n\r\n`);
  let buf = Buffer.alloc(0);
  const conn = {
    send(obj) {
      const data = Buffer.from(JSON.stringify(obj));
      let head;
      if (data.length < 126) head = Buffer.from([0x81, data.length]);
      else if (data.length < 65536) { head = Buffer.alloc(4); head[0] = 0x81; head[1] = 126; head.writeUInt16BE(data.length, 2); }
      else { head = Buffer.alloc(10); head[0] = 0x81; head[1] = 127; head.writeBigUInt64BE(BigInt(data.length), 2); }
      if (!sock.destroyed) sock.write(Buffer.concat([head, data]));
    },
    close() { sock.destroy(); },
  };
  sock.on('data', d => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      if (buf.length < 2) return;
      const op = buf[0] & 0x0f;
      let len = buf[1] & 0x7f, off = 2;
      if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); off = 4; }
      else if (len === 127) { if (buf.length < 10) return; len = Number(buf.readBigUInt64BE(2)); off = 10; }
      if (buf.length < off + 4 + len) return;
      const mask = buf.slice(off, off + 4);
      const data = Buffer.from(buf.slice(off + 4, off + 4 + len));
      for (let i = 0; i < data.length; i++) data[i] ^= mask[i % 4];
      buf = buf.slice(off + 4 + len);
      if (op === 8) { sock.end(); return; }
      if (op === 1) onMessage(conn, data.toString());
    }
  });
  sock.on('close', () => onClose(conn));
  sock.on('error', () => {});
  return conn;
}

async function onFrame(c, text) {
  let f;
  try { f = JSON.parse(text); } catch (e) { c.send({ type: 'error', message: 'the frame is not JSON' }); return; }
  if (f.type === 'ping') { c.send({ type: 'pong' }); return; }
  if (f.type === 'hello') {
    const g = games.get(f.game);
    if (!g) { c.send({ type: 'error', message: `no game '${f.game}'` }); return; }
    let seat = null;
    if (f.token) {
      const s = g.seats.find(x => x.token === f.token);
      if (!s) { c.send({ type: 'error', message: 'unknown token for this game' }); return; }
      seat = s.seat;
    }
    c.game = g; c.seat = seat; c.seen = 0;
    g.conns.add(c);
    await broadcast(g);
    return;
  }
  if (f.type === 'act') {
    const g = c.game;
    if (!g || !c.seat) { c.send({ type: 'error', message: 'spectators cannot act' }); return; }
    const st = await g.eng.ask('status');
    if (typeof f.ply === 'number' && f.ply !== st.ply) { c.send({ type: 'error', message: `stale: the game moved on (ply ${st.ply}, you saw ${f.ply})` }); return; }
    const r = await g.eng.ask(`as ${c.seat} ${f.text}`);
    if (!r.ok) { c.send({ type: 'error', message: r.error }); return; }
    await broadcast(g);
    botTurn(g);
    return;
  }
  c.send({ type: 'error', message: `unknown frame type '${f.type}'` });
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

const server = http.createServer(async (req, res) => {
  const json = (code, obj) => { res.writeHead(code, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(obj)); };
  const url = new URL(req.url, 'http://x');
  try {
    if (url.pathname === '/api/variants') return json(200, await variants());
    if (url.pathname === '/api/games' && req.method === 'POST') {
      let body = '';
      for await (const ch of req) body += ch;
      try { return json(201, await createGame(JSON.parse(body || '{}'))); } catch (e) { return json(400, { error: e.message }); }
    }
    if (url.pathname === '/api/games') {
      const list = [];
      for (const g of games.values()) {
        const st = await g.eng.ask('status');
        list.push({ game: g.id, variant: g.variant, title: g.title, over: st.status.over, result: st.status.result,
          seats: g.seats.map(x => ({ seat: x.seat, bot: x.bot, connected: [...g.conns].some(k => k.seat === x.seat) })) });
      }
      return json(200, { games: list });
    }
    const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    if (/^[\w.-]+$/.test(name) && fs.existsSync(path.join(WEB, name))) {
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(name)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
      return res.end(fs.readFileSync(path.join(WEB, name)));
    }
    json(404, { error: `no such page: ${url.pathname}` });
  } catch (e) {
    json(500, { error: e.message });
  }
});

server.on('upgrade', (req, sock) => {
  if (new URL(req.url, 'http://x').pathname !== '/ws') { sock.destroy(); return; }
  wsAccept(req, sock, (c, t) => { onFrame(c, t).catch(e => c.send({ type: 'error', message: e.message })); },
    c => { if (c.game) { c.game.conns.delete(c); broadcast(c.game).catch(() => {}); } });
});

server.listen(PORT, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}/`);
});
