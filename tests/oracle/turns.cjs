// turns.cjs -- the independent counter of issue 25's turn structures: perft
// of the schedules of scripts/ (monster, marseillais, progressive,
// balanced, double_move, black_extra_capture, duck), written from the
// issue and its rules TURN-1..7 alone, not from the engine's code.
//
// Orthodox chess comes from chessops (lichess's rules library, installed
// in build/oracle by `make deps-oracle`); the schedules are laid on top of
// it here:
// - a turn has n moves, n asked of the schedule at its start and after
//   each of its moves (the last answer stands);
// - after a move, while fewer than n moves are made, the same side moves
//   again: the turn is set back to it and the en passant target goes --
//   unless the move gives check, which ends the turn (TURN-2: the side to
//   move next cannot be left in check);
// - every move is a legal orthodox move on its own (TURN-3);
// - every action is one ply; a side to act without a legal move ends the
//   game there (TURN-6), and nothing is counted below an end.
// Duck chess has no chessops: a small generator of its own is below
// (check = no: a King may be left attacked and is captured, capturing it
// ends the game; castling only needs the squares between empty; the duck
// blocks every piece and is never captured; after each move the mover
// places it on an empty square other than the one it stood on; a side to
// move without a move ends the game).
//
// Usage:
//   node tests/oracle/turns.cjs plan [--small]
//       one line per comparison: SCRIPT<TAB>LABEL<TAB>DEPTH<TAB>COUNT<TAB>MOVES
//       (MOVES: the actions from the script's start, space-separated, or
//       "-"), each script's start and 3 positions of seeded random games;
//       first the counter checks itself against chessops: with one move a
//       turn its perft is chessops', and the duck generator without a duck,
//       its moves that leave the King safe kept, gives chessops' legal moves
//   node tests/oracle/turns.cjs perft SCRIPT DEPTH [MOVES]
//   node tests/oracle/turns.cjs divide SCRIPT DEPTH [MOVES]
//       "action: count" lines, then "Nodes searched: N", as chessvar's
//   node tests/oracle/turns.cjs legal SCRIPT [MOVES]
'use strict';
const oracle = require('./oracle.cjs');

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// The schedules of the design's table: how many moves the current turn
// has, asked with t = {side, number, made, capture (the last move took a
// piece), n (the answer before)}.
const SCHEDULES = {
  monster: { start: 'rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1',
    moves: t => (t.side === 'white' ? 2 : 1) },
  marseillais: { moves: t => (t.number === 1 ? 1 : 2) },
  progressive: { moves: t => t.number },
  balanced: { moves: t => (t.number === 1 ? 1 : 2) },
  double_move: { moves: () => 2 },
  // the design's table: "Black gets an extra move after each capture" --
  // every capture of Black's, one on an extra move too, gives one more
  // (the script's own words: "When Black takes a piece, Black moves again
  // at once")
  black_extra_capture: { moves: t => (t.made === 0 ? 1 : t.made + (t.side === 'black' && t.capture ? 1 : 0)) },
  // no schedule: the counter's own check against chessops' perft
  alternate: { moves: () => 1 },
  duck: { duck: true },
};

/* ------------------------------------------------------ orthodox schedules */

// A node: the chessops position (its turn: the side to move now) and the
// turn's number, moves made in it and moves it has.
function orthoStart(name) {
  const s = SCHEDULES[name];
  const pos = oracle.position('orthodox', s.start || START);
  const node = { pos, number: 1, made: 0, n: 0 };
  node.n = s.moves({ side: pos.turn, number: 1, made: 0, capture: false, n: 0 });
  return node;
}

function pieces(pos, color) {
  return pos.board[color].size();
}

function orthoChildren(name, node) {
  const s = SCHEDULES[name];
  const out = [];
  for (const { move, text } of oracle.legalMoves(node.pos)) {
    const side = node.pos.turn;
    const other = side === 'white' ? 'black' : 'white';
    const pos = node.pos.clone();
    const before = pieces(pos, other);
    pos.play(move);
    const capture = pieces(pos, other) < before;
    const made = node.made + 1;
    const n = s.moves({ side, number: node.number, made, capture, n: node.n });
    let child;
    if (made < n && !pos.isCheck()) { // TURN-2: the same side again
      pos.turn = side;
      pos.epSquare = undefined;
      child = { pos, number: node.number, made, n };
    } else { // TURN-5: the other side's turn
      const c = { pos, number: node.number + 1, made: 0, n: 0 };
      c.n = s.moves({ side: pos.turn, number: c.number, made: 0, capture: false, n: 0 });
      child = c;
    }
    out.push({ text, node: child });
  }
  return out;
}

/* ------------------------------------------------------------- duck chess */

// Squares 0..63 (a1 = 0, h8 = 63); a piece as its letter (upper case
// White), '*' the duck, '' empty.
const FILES = 'abcdefgh';
const sqName = s => FILES[s & 7] + ((s >> 3) + 1);
const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK = [[1, 0], [0, 1], [-1, 0], [0, -1]];
const BISHOP = [[1, 1], [-1, 1], [-1, -1], [1, -1]];

function duckStart() {
  const board = new Array(64).fill('');
  const back = 'RNBQKBNR';
  for (let f = 0; f < 8; f++) {
    board[f] = back[f];
    board[8 + f] = 'P';
    board[48 + f] = 'p';
    board[56 + f] = back[f].toLowerCase();
  }
  // phase 'move' or 'duck'; over: the game has ended (a King taken)
  return { board, side: 'w', castle: 'KQkq', ep: -1, duck: -1, phase: 'move', over: false };
}

const isWhite = p => p !== '' && p !== '*' && p === p.toUpperCase();
const isBlack = p => p !== '' && p !== '*' && p === p.toLowerCase();
const own = (p, side) => (side === 'w' ? isWhite(p) : isBlack(p));
const enemy = (p, side) => (side === 'w' ? isBlack(p) : isWhite(p));

function at(f, r) {
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1;
}

// The moves of the side to move, pseudo-legal (check = no), as
// {from, to, promo, castle, ep, text}.
function duckMoves(st) {
  const b = st.board;
  const side = st.side;
  const out = [];
  const add = (from, to, extra = {}) => out.push({ from, to, ...extra });
  for (let s = 0; s < 64; s++) {
    const p = b[s];
    if (!own(p, side))
      continue;
    const f = s & 7;
    const r = s >> 3;
    const role = p.toLowerCase();
    if (role === 'p') {
      const dir = side === 'w' ? 1 : -1;
      const last = side === 'w' ? 7 : 0;
      const step = (to, extra) => {
        if ((to >> 3) === last)
          for (const q of 'qrbn')
            add(s, to, { ...extra, promo: q });
        else
          add(s, to, extra);
      };
      const one = at(f, r + dir);
      if (one >= 0 && b[one] === '') {
        step(one, {});
        const two = at(f, r + 2 * dir);
        if (r === (side === 'w' ? 1 : 6) && b[two] === '')
          add(s, two, { double: one });
      }
      for (const df of [-1, 1]) {
        const to = at(f + df, r + dir);
        if (to < 0)
          continue;
        if (enemy(b[to], side))
          step(to, {});
        else if (to === st.ep && b[to] === '')
          add(s, to, { ep: at(f + df, r) });
      }
    } else if (role === 'n' || role === 'k') {
      for (const [df, dr] of role === 'n' ? KNIGHT : KING) {
        const to = at(f + df, r + dr);
        if (to >= 0 && (b[to] === '' || enemy(b[to], side)))
          add(s, to);
      }
      if (role === 'k') {
        const home = side === 'w' ? 4 : 60;
        const [k, q] = side === 'w' ? ['K', 'Q'] : ['k', 'q'];
        const rook = side === 'w' ? 'R' : 'r';
        if (s === home && st.castle.includes(k) && b[home + 3] === rook &&
            b[home + 1] === '' && b[home + 2] === '')
          add(s, home + 2, { castle: [home + 3, home + 1] });
        if (s === home && st.castle.includes(q) && b[home - 4] === rook &&
            b[home - 1] === '' && b[home - 2] === '' && b[home - 3] === '')
          add(s, home - 2, { castle: [home - 4, home - 1] });
      }
    } else {
      const dirs = role === 'r' ? ROOK : role === 'b' ? BISHOP : ROOK.concat(BISHOP);
      for (const [df, dr] of dirs) {
        for (let i = 1; ; i++) {
          const to = at(f + i * df, r + i * dr);
          if (to < 0 || b[to] === '*' || own(b[to], side))
            break;
          add(s, to);
          if (b[to] !== '')
            break;
        }
      }
    }
  }
  for (const m of out)
    m.text = sqName(m.from) + sqName(m.to) + (m.promo || '');
  return out;
}

// The position after a move: the duck to place next, or the game over
// when the move took a King.
function duckPlay(st, m) {
  const b = st.board.slice();
  const p = b[m.from];
  const taken = b[m.to];
  b[m.to] = m.promo ? (st.side === 'w' ? m.promo.toUpperCase() : m.promo) : p;
  b[m.from] = '';
  if (m.ep !== undefined)
    b[m.ep] = '';
  if (m.castle) {
    b[m.castle[1]] = b[m.castle[0]];
    b[m.castle[0]] = '';
  }
  let castle = st.castle;
  const drop = c => { castle = castle.replace(c, ''); };
  if (p === 'K') { drop('K'); drop('Q'); }
  if (p === 'k') { drop('k'); drop('q'); }
  for (const s of [m.from, m.to]) {
    if (s === 7) drop('K');
    if (s === 0) drop('Q');
    if (s === 63) drop('k');
    if (s === 56) drop('q');
  }
  const over = taken === 'K' || taken === 'k';
  return { board: b, side: st.side, castle, ep: m.double === undefined ? -1 : m.double,
    duck: st.duck, phase: 'duck', over };
}

function duckChildren(st) {
  if (st.over)
    return [];
  const out = [];
  if (st.phase === 'move') {
    for (const m of duckMoves(st))
      out.push({ text: m.text, node: duckPlay(st, m) });
    return out;
  }
  for (let s = 0; s < 64; s++) {
    if (st.board[s] !== '')
      continue; // occupied, or the duck's own square
    const b = st.board.slice();
    if (st.duck >= 0)
      b[st.duck] = '';
    b[s] = '*';
    out.push({ text: duckText(s), node: { board: b, side: st.side === 'w' ? 'b' : 'w',
      castle: st.castle, ep: st.ep, duck: s, phase: 'move', over: false } });
  }
  return out;
}

// The duck placement as chessvar's machine notation writes it.
function duckText(s) {
  return '@' + sqName(s);
}

// The duck generator's own check: without a duck, its moves that leave the
// mover's King unattacked (castling: not from, over or onto an attacked
// square) are orthodox chess's legal moves, chessops'.
function duckFromFen(fen) {
  const [rows, side, castle, ep] = fen.split(' ');
  const board = new Array(64).fill('');
  rows.split('/').forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '8')
        f += Number(ch);
      else
        board[(7 - i) * 8 + f++] = ch;
    }
  });
  const epSq = ep === '-' ? -1 : FILES.indexOf(ep[0]) + 8 * (Number(ep[1]) - 1);
  return { board, side, castle: castle === '-' ? '' : castle, ep: epSq, duck: -1,
    phase: 'move', over: false };
}

// Is square s attacked by a piece of side `by` on board b?
function attacked(b, s, by) {
  const f = s & 7;
  const r = s >> 3;
  const mine = p => (by === 'w' ? isWhite(p) : isBlack(p));
  const is = (sq, role) => sq >= 0 && mine(b[sq]) && b[sq].toLowerCase() === role;
  const dir = by === 'w' ? -1 : 1; // a pawn of `by` attacks from behind s
  if (is(at(f - 1, r + dir), 'p') || is(at(f + 1, r + dir), 'p'))
    return true;
  if (KNIGHT.some(([df, dr]) => is(at(f + df, r + dr), 'n')))
    return true;
  if (KING.some(([df, dr]) => is(at(f + df, r + dr), 'k')))
    return true;
  for (const [dirs, roles] of [[ROOK, 'rq'], [BISHOP, 'bq']]) {
    for (const [df, dr] of dirs) {
      for (let i = 1; ; i++) {
        const t = at(f + i * df, r + i * dr);
        if (t < 0)
          break;
        if (b[t] !== '') {
          if (mine(b[t]) && roles.includes(b[t].toLowerCase()))
            return true;
          break;
        }
      }
    }
  }
  return false;
}

function duckSelfCheck(fen) {
  const st = duckFromFen(fen);
  const other = st.side === 'w' ? 'b' : 'w';
  const king = st.side === 'w' ? 'K' : 'k';
  const mine = [];
  for (const m of duckMoves(st)) {
    if (m.castle && [m.from, (m.from + m.to) / 2, m.to].some(s => attacked(st.board, s, other)))
      continue;
    const after = duckPlay(st, m).board;
    if (!attacked(after, after.indexOf(king), other))
      mine.push(m.text);
  }
  mine.sort();
  const theirs = oracle.legalMoves(oracle.position('orthodox', fen)).map(m => m.text);
  if (mine.join(' ') !== theirs.join(' '))
    throw new Error(`the duck generator's orthodox moves differ from chessops' in ${fen}: ${mine.join(' ')} / ${theirs.join(' ')}`);
}

/* ------------------------------------------------------------------ common */

function startNode(name) {
  if (!SCHEDULES[name])
    throw new Error(`unknown schedule "${name}": one of ${Object.keys(SCHEDULES).join(', ')}`);
  return name === 'duck' ? duckStart() : orthoStart(name);
}

function children(name, node) {
  return name === 'duck' ? duckChildren(node) : orthoChildren(name, node);
}

// The node after the actions of `moves` (texts) from the start; throws
// naming the first one that is not an action there.
function play(name, moves) {
  let node = startNode(name);
  moves.forEach((text, i) => {
    const c = children(name, node).find(x => x.text === text);
    if (!c)
      throw new Error(`${name}: action ${i + 1} '${text}' is not legal there`);
    node = c.node;
  });
  return node;
}

function perftNode(name, node, depth) {
  if (depth === 0)
    return 1;
  const cs = children(name, node);
  if (depth === 1)
    return cs.length;
  let n = 0;
  for (const c of cs)
    n += perftNode(name, c.node, depth - 1);
  return n;
}

function perft(name, moves, depth) {
  return perftNode(name, play(name, moves), depth);
}

function divide(name, moves, depth) {
  return children(name, play(name, moves))
    .map(c => [c.text, perftNode(name, c.node, depth - 1)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

// A seeded random game of the schedule: `plies` actions drawn from the
// children sorted by text; a game that ends before is drawn again.
function randomLine(name, seed, plies) {
  const below = oracle.rng(`turns:${name}`, seed);
  for (let attempt = 0; attempt < 1000; attempt++) {
    let node = startNode(name);
    const line = [];
    let ok = true;
    for (let i = 0; i < plies && ok; i++) {
      const cs = children(name, node).sort((a, b) => (a.text < b.text ? -1 : 1));
      if (cs.length === 0) {
        ok = false;
        break;
      }
      const c = cs[below(cs.length)];
      line.push(c.text);
      node = c.node;
    }
    if (ok && children(name, node).length > 0)
      return line;
  }
  throw new Error(`${name}: no game of ${plies} actions from seed ${seed}`);
}

// The deepest depth (at most 8) whose count stays under `most`, the next
// count guessed from the last two before it is counted; at least 1.
function pickDepth(name, node, most) {
  let prev = 1;
  let cur = perftNode(name, node, 1);
  let depth = 1;
  while (depth < 8 && cur > 0) {
    const guess = cur * Math.max(cur / prev, 1);
    if (guess > most)
      break;
    const next = perftNode(name, node, depth + 1);
    if (next > most)
      break;
    prev = cur;
    cur = next;
    depth++;
  }
  return { depth, count: cur };
}

// Positions of the plan besides the random ones, where a rule shows: en
// passant after a turn's last move only (TURN-7), a capture on Black's
// extra move, a check on the first move of a turn (TURN-2).
const FIXED = {
  double_move: [['en passant on', 'e2e4 e4e5 a7a6 d7d5'], ['en passant gone', 'e2e4 e4e5 d7d5 a7a6']],
  black_extra_capture: [['a capture, then another', 'e2e4 d7d5 d1g4 c8g4']],
  marseillais: [['a check ends the turn', 'e2e4 e7e5 f7f6'], ['in check', 'e2e4 e7e5 f7f6 d1h5']],
};

const PLAN = ['monster', 'marseillais', 'progressive', 'balanced', 'double_move',
  'black_extra_capture', 'duck'];

async function main(argv) {
  await oracle.load();
  const [cmd, ...rest] = argv;
  const movesOf = s => (s && s !== '-' ? s.trim().split(/\s+/) : []);
  if (cmd === 'plan') {
    const small = rest.includes('--small');
    const most = small ? 3000 : 250000;
    const only = rest.filter(a => !a.startsWith('--'));
    // the counter's own check: with one move a turn it is chessops' perft
    for (const [fen, d] of [[START, small ? 3 : 4],
      ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', small ? 2 : 3]]) {
      const node = { pos: oracle.position('orthodox', fen), number: 1, made: 0, n: 1 };
      const mine = perftNode('alternate', node, d);
      const theirs = oracle.ops().debug.perft(oracle.position('orthodox', fen), d, false);
      if (mine !== theirs)
        throw new Error(`the counter with one move a turn gives ${mine} at depth ${d} of ${fen}, chessops ${theirs}`);
    }
    // ... and the duck generator's, at every node two plies deep from
    // positions with castling, en passant and promotions (the published
    // perft positions 2 to 5), and at random games' positions
    const tree = (pos, d) => {
      duckSelfCheck(oracle.fenOf(pos));
      if (d > 0)
        for (const { move } of oracle.legalMoves(pos)) {
          const c = pos.clone();
          c.play(move);
          tree(c, d - 1);
        }
    };
    for (const fen of ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
      '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
      'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
      'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8'])
      tree(oracle.position('orthodox', fen), small ? 1 : 2);
    for (let seed = 1; seed <= (small ? 20 : 200); seed++)
      duckSelfCheck(oracle.randomPosition('orthodox', seed, 10 + seed % 60).fen);
    for (const name of only.length ? only : PLAN) {
      const lines = [['start', []]];
      for (const [label, moves] of FIXED[name] || [])
        lines.push([label, moves.split(' ')]);
      for (let seed = 1; seed <= 3; seed++) {
        const plies = 10 + oracle.rng(`turns-plies:${name}`, seed)(31); // 10 .. 40
        lines.push([`seed ${seed}`, randomLine(name, seed, plies)]);
      }
      for (const [label, moves] of lines) {
        const { depth, count } = pickDepth(name, play(name, moves), most);
        process.stdout.write(`${name}\t${label}\t${depth}\t${count}\t${moves.length ? moves.join(' ') : '-'}\n`);
      }
    }
    return 0;
  }
  if (cmd === 'perft' || cmd === 'divide') {
    const [name, d, moves] = rest;
    const depth = Number(d);
    if (!Number.isInteger(depth) || depth < 1)
      throw new Error(`depth "${d}": give a whole number from 1`);
    if (cmd === 'perft') {
      process.stdout.write(`Nodes searched: ${perft(name, movesOf(moves), depth)}\n`);
    } else {
      let n = 0;
      for (const [text, c] of divide(name, movesOf(moves), depth)) {
        process.stdout.write(`${text}: ${c}\n`);
        n += c;
      }
      process.stdout.write(`\nNodes searched: ${n}\n`);
    }
    return 0;
  }
  if (cmd === 'legal') {
    const [name, moves] = rest;
    for (const c of children(name, play(name, movesOf(moves))).sort((a, b) => (a.text < b.text ? -1 : 1)))
      process.stdout.write(`${c.text}\n`);
    return 0;
  }
  throw new Error('usage: turns.cjs plan [--small] [SCRIPT...] | perft SCRIPT DEPTH [MOVES] | divide SCRIPT DEPTH [MOVES] | legal SCRIPT [MOVES]');
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    code => process.exit(code),
    e => {
      process.stderr.write(`turns.cjs: ${e.message}\n`);
      process.exit(e.missing ? 3 : 1);
    });
}

module.exports = { SCHEDULES, perft, divide, play, children, startNode, randomLine };
