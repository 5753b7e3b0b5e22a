// oracle.cjs -- the references the fairy variant is checked against (issue
// 24): chessops, lichess's rules library, for the seven lichess variants,
// and ffish, Fairy-Stockfish compiled to WebAssembly, for Fairy-Stockfish's
// variants (capablanca, embassy, janus, grand, seirawan ...).  Both are npm
// packages that `make test` and `make bench` install into build/oracle
// (pinned in the Makefile); ORACLE_DIR names another node_modules.
//
// What it gives: perft counts by either library, a divide (the count under
// each root move, moves written as chessvar writes them: castling as the
// King's move e1g1, drops N@f3), and middlegame positions of seeded random
// games (a PRNG of its own, so the same seed gives the same position on any
// machine and any node).
//
// Invariant: every count comes from the library's own legal moves and its
// own end of game (chessops: no move after a variant end, its debug perft;
// ffish: its legal move list); nothing here knows a rule of a variant.
'use strict';
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = process.env.ORACLE_DIR || path.join(ROOT, 'build', 'oracle', 'node_modules');

// Our script names (scripts/variants/NAME.lua) to chessops' rules.
const LICHESS = {
  antichess: 'antichess',
  atomic: 'atomic',
  crazyhouse: 'crazyhouse',
  horde: 'horde',
  king_of_the_hill: 'kingofthehill',
  racing_kings: 'racingkings',
  three_check: '3check',
  orthodox: 'chess',
};

function missing(what, e) {
  const err = new Error(`${what} is not installed in ${DIR} (make deps-oracle installs it): ${e.message}`);
  err.missing = true;
  return err;
}

// chessops ships ES modules (its CommonJS build is not usable from node:
// the package says "type": "module"): load() imports them once, before
// any other call.
let chessops = null;
async function load() {
  if (chessops)
    return chessops;
  const { pathToFileURL } = require('url');
  const mod = name => import(pathToFileURL(path.join(DIR, 'chessops', 'dist', 'esm', name)).href);
  try {
    chessops = {
      variant: await mod('variant.js'),
      fen: await mod('fen.js'),
      util: await mod('util.js'),
      debug: await mod('debug.js'),
      squareSet: await mod('squareSet.js'),
      version: require(path.join(DIR, 'chessops', 'package.json')).version,
    };
  } catch (e) {
    throw missing('chessops', e);
  }
  return chessops;
}

function ops() {
  if (!chessops)
    throw new Error('oracle.cjs: load() first');
  return chessops;
}

// The chessops rules of a variant name (ours or chessops' own); throws on
// an unknown one, naming the choices.
function rulesOf(variant) {
  if (LICHESS[variant])
    return LICHESS[variant];
  if (Object.values(LICHESS).includes(variant))
    return variant;
  throw new Error(`unknown lichess variant "${variant}": one of ${Object.keys(LICHESS).join(', ')}`);
}

// A chessops Position of variant from fen (undefined: the variant's start).
function position(variant, fen) {
  const c = ops();
  const rules = rulesOf(variant);
  if (fen === undefined)
    return c.variant.defaultPosition(rules);
  const setup = c.fen.parseFen(fen);
  if (setup.isErr)
    throw new Error(`chessops cannot read the position "${fen}": ${setup.error.message}`);
  const pos = c.variant.setupPosition(rules, setup.value);
  if (pos.isErr)
    throw new Error(`chessops refuses the position "${fen}" in ${variant}: ${pos.error.message}`);
  return pos.value;
}

// The position string as chessops (lichess) writes it.
function fenOf(pos) {
  const c = ops();
  return c.fen.makeFen(pos.toSetup());
}

const FILES = 'abcdefgh';
const sq = s => FILES[s & 7] + ((s >> 3) + 1);
const ROLE_LETTER = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };

// Every legal move of pos as {move, text}: text as chessvar's machine form
// (e2e4, e7e8q, castling as the King's move e1g1 -- onto its rook, b1a1,
// where the king steps one file -- drops N@f3), sorted by
// text so the order is the same whatever chessops' inner order.
function legalMoves(pos) {
  const c = ops();
  const out = [];
  const ctx = pos.ctx();
  const promotions = ['queen', 'rook', 'bishop', 'knight'];
  if (pos.rules === 'antichess')
    promotions.push('king');
  const backranks = c.squareSet.SquareSet.backranks();
  for (const [from, dests] of pos.allDests(ctx)) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const target = pos.board.get(to);
      if (piece.role === 'king' && target && target.color === piece.color && target.role === 'rook') {
        const side = to < from ? 'a' : 'h';
        const kto = c.util.kingCastlesTo(pos.turn, side);
        // a king that steps one file to castle: written onto its rook, as
        // chessvar does, so it never reads as the plain step
        const text = sq(from) + sq(Math.abs((kto & 7) - (from & 7)) === 1 ? to : kto);
        out.push({ move: { from, to }, text });
      } else if (piece.role === 'pawn' && backranks.has(to)) {
        for (const p of promotions)
          out.push({ move: { from, to, promotion: p }, text: sq(from) + sq(to) + ROLE_LETTER[p] });
      } else {
        out.push({ move: { from, to }, text: sq(from) + sq(to) });
      }
    }
  }
  if (pos.pockets) {
    const drops = pos.dropDests(ctx);
    for (const role of ['pawn', 'knight', 'bishop', 'rook', 'queen']) {
      if (pos.pockets[pos.turn][role] <= 0)
        continue;
      const where = role === 'pawn' ? drops.diff(backranks) : drops;
      for (const to of where)
        out.push({ move: { role, to }, text: ROLE_LETTER[role].toUpperCase() + '@' + sq(to) });
    }
  }
  out.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return out;
}

// Where the game stands for lichess: '*' while it goes on, '?' when
// chessops would call it drawn by insufficient material (lichess's rules of
// that differ by variant: not compared), else its result, '1-0', '0-1' or
// '1/2-1/2' (a variant's end, mate, stalemate: the ends that leave no move).
function outcomeOf(pos) {
  if (!pos.isVariantEnd() && legalMoves(pos).length > 0)
    return pos.isInsufficientMaterial() ? '?' : '*';
  const o = pos.outcome();
  if (!o)
    return '?';
  return o.winner === 'white' ? '1-0' : o.winner === 'black' ? '0-1' : '1/2-1/2';
}

// The position's outcome and each root move after which the game does not
// simply go on: {here, ends: [[text, outcome], ...]}.
function outcomes(variant, fen) {
  const pos = position(variant, fen);
  const ends = [];
  for (const { move, text } of legalMoves(pos)) {
    const child = pos.clone();
    child.play(move);
    const o = outcomeOf(child);
    if (o !== '*')
      ends.push([text, o]);
  }
  return { here: outcomeOf(pos), ends };
}

// chessops' perft (its debug module: the count lichess's own tests use).
function perft(variant, fen, depth) {
  const c = ops();
  return c.debug.perft(position(variant, fen), depth, false);
}

// The count under each root move: [[text, count], ...] sorted by text.
function divide(variant, fen, depth) {
  const c = ops();
  const pos = position(variant, fen);
  return legalMoves(pos).map(({ move, text }) => {
    const child = pos.clone();
    child.play(move);
    return [text, c.debug.perft(child, depth - 1, false)];
  });
}

// A small generator of our own (FNV-1a of the variant's name and the seed,
// then xorshift32), so a seed gives the same game on any machine and any
// version of node, and each variant its own games.
function rng(variant, seed) {
  let s = 0x811c9dc5;
  for (const ch of `${variant}:${seed}`)
    s = Math.imul(s ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  if (s === 0)
    s = 1;
  return n => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s % n;
  };
}

// A middlegame position of variant: `plies` random legal moves from its
// start, drawn from seed; a game that ends (or leaves no move) before is
// thrown away and the next is drawn from the same generator.  Returns the
// position string as chessops writes it and the moves played.
function randomPosition(variant, seed, plies = 20) {
  const below = rng(rulesOf(variant), seed);
  for (let attempt = 0; attempt < 1000; attempt++) {
    const pos = position(variant);
    const line = [];
    let ok = true;
    for (let i = 0; i < plies; i++) {
      const moves = legalMoves(pos);
      if (moves.length === 0 || pos.isEnd()) {
        ok = false;
        break;
      }
      const m = moves[below(moves.length)];
      line.push(m.text);
      pos.play(m.move);
    }
    if (ok && !pos.isEnd() && legalMoves(pos).length > 0)
      return { fen: fenOf(pos), moves: line };
  }
  throw new Error(`no ${variant} game of ${plies} plies from seed ${seed}`);
}

/* ------------------------------------------------------------------ ffish */
// ffish (emscripten, 2020) fetches its .wasm with fetch() when node has one,
// which fails on a file path: it is loaded with fetch hidden, so it reads
// the file itself.
let ffishModule = null;
function ffish() {
  if (ffishModule)
    return ffishModule;
  ffishModule = new Promise((resolve, reject) => {
    let m;
    const f0 = globalThis.fetch;
    try {
      globalThis.fetch = undefined;
      m = require(path.join(DIR, 'ffish'));
    } catch (e) {
      reject(missing('ffish', e));
      return;
    } finally {
      globalThis.fetch = f0;
    }
    m.version = require(path.join(DIR, 'ffish', 'package.json')).version;
    if (m.calledRun)
      resolve(m);
    else
      m.onRuntimeInitialized = () => resolve(m);
  });
  return ffishModule;
}

function ffishPerftBoard(b, depth) {
  if (depth === 1)
    return b.numberLegalMoves();
  let n = 0;
  for (const m of b.legalMoves().split(' ')) {
    if (!m)
      continue;
    b.push(m);
    n += ffishPerftBoard(b, depth - 1);
    b.pop();
  }
  return n;
}

// The Fairy-Stockfish variants asked of ffish.  ffish 0.7.10's variants()
// answers nothing, and a name it does not know brings the module down
// (memory access out of bounds): names are checked here first.
const FFISH_VARIANTS = ['chess', 'capablanca', 'embassy', 'janus', 'grand', 'gothic', 'seirawan',
  'shako', 'crazyhouse', 'atomic', 'antichess', 'horde', 'kingofthehill', 'racingkings', '3check'];

async function ffishBoard(variant, fen) {
  if (!FFISH_VARIANTS.includes(variant))
    throw new Error(`ffish variant "${variant}": one of ${FFISH_VARIANTS.join(', ')}`);
  const f = await ffish();
  if (fen !== undefined && f.validateFen(fen, variant) !== 1)
    throw new Error(`ffish refuses the position "${fen}" in ${variant} (validateFen ${f.validateFen(fen, variant)})`);
  return fen === undefined ? new f.Board(variant) : new f.Board(variant, fen);
}

// Fairy-Stockfish's perft: its legal moves, to depth.
async function ffishPerft(variant, fen, depth) {
  const b = await ffishBoard(variant, fen);
  try {
    return depth < 1 ? 1 : ffishPerftBoard(b, depth);
  } finally {
    b.delete();
  }
}

async function ffishDivide(variant, fen, depth) {
  const b = await ffishBoard(variant, fen);
  try {
    const out = [];
    for (const m of b.legalMoves().split(' ').filter(Boolean).sort()) {
      b.push(m);
      out.push([m, depth <= 1 ? 1 : ffishPerftBoard(b, depth - 1)]);
      b.pop();
    }
    return out;
  } finally {
    b.delete();
  }
}

// A middlegame position of a Fairy-Stockfish variant, as randomPosition:
// ffish's legal moves sorted, drawn from the same generator.
async function ffishRandomPosition(variant, seed, plies = 20) {
  const below = rng(`ffish:${variant}`, seed);
  for (let attempt = 0; attempt < 1000; attempt++) {
    const b = await ffishBoard(variant);
    try {
      const line = [];
      let ok = true;
      for (let i = 0; i < plies && ok; i++) {
        const moves = b.legalMoves().split(' ').filter(Boolean).sort();
        if (moves.length === 0 || b.isGameOver()) {
          ok = false;
          break;
        }
        const m = moves[below(moves.length)];
        line.push(m);
        b.push(m);
      }
      if (ok && !b.isGameOver() && b.numberLegalMoves() > 0)
        return { fen: b.fen(), moves: line };
    } finally {
      b.delete();
    }
  }
  throw new Error(`no ${variant} game of ${plies} plies from seed ${seed}`);
}

// The start position (ffish 0.7.10's startingFen() answers nothing: a
// board's own position is read).
async function ffishStart(variant) {
  const b = await ffishBoard(variant);
  try {
    return b.fen();
  } finally {
    b.delete();
  }
}

module.exports = {
  DIR, LICHESS, load, ops, rulesOf, position, fenOf, legalMoves, outcomes, perft, divide, rng, randomPosition,
  ffish, ffishPerft, ffishDivide, ffishStart, ffishRandomPosition,
};
